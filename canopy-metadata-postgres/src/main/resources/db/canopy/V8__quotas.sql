-- Namespace and storage-space quotas (issue 6). A directory with a quota is flagged on its inode row, so the
-- ancestors an operation reads while resolving its path tell which quota rows it must update; the limits and the
-- usage live in their own table keyed by the directory's inode id (its partition key), locked after the inodes.
-- A limit of -1 means no limit of that kind. quota.epoch counts the operations that changed which quota rows a
-- subtree is charged to (a quota set on a directory, a move between quota directories): an operation that read its
-- path before such a change re-runs (docs/design/008-quotas.md).
ALTER TABLE inodes ADD COLUMN has_quota boolean NOT NULL DEFAULT false;

CREATE TABLE directory_quotas (
  inode_id            bigint PRIMARY KEY,
  namespace_quota     bigint NOT NULL,
  storage_space_quota bigint NOT NULL,
  namespace_used      bigint NOT NULL,
  storage_space_used  bigint NOT NULL
);

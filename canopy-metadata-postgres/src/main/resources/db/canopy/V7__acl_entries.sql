-- POSIX ACLs (issue 6): the entries the permission bits cannot hold, one row per entry, partitioned by inode id like
-- every per-inode row (DESIGN s.4). Only inodes whose permission column carries the ACL bit (1 << 12, HDFS's
-- FsPermissionExtension bit) have rows here, so an operation reads this table only for those inodes. Rows are
-- locked implicitly through their inode's lock. Codes: scope 0 access, 1 default; entry_type 0 user, 1 group,
-- 2 mask, 3 other; permission the rwx bits (0..7); name NULL for an unnamed entry. position orders an inode's
-- entries as HDFS sorts an ACL (access before default; user, group, mask, other; unnamed before named, by name).
CREATE TABLE acl_entries (
  inode_id    bigint   NOT NULL,
  position    smallint NOT NULL,
  scope       smallint NOT NULL,
  entry_type  smallint NOT NULL,
  name        text,
  permission  smallint NOT NULL,
  PRIMARY KEY (inode_id, position)
);

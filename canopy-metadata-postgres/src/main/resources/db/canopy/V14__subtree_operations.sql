-- Subtree operations (design 017, HopsFS's subtree protocol): a delete, move or attribute change of a large
-- directory runs as several transactions. The directory it holds carries the id of the namenode running it
-- (0: none), which every other operation meeting it on its path sees; the running operations are listed in
-- subtree_operations, which a new one reads to find one running below its own root.
ALTER TABLE inodes ADD COLUMN subtree_lock_owner bigint NOT NULL DEFAULT 0;

CREATE TABLE subtree_operations (
  root_id      bigint PRIMARY KEY,
  namenode_id  bigint NOT NULL,
  operation    text   NOT NULL,
  path         text   NOT NULL,
  started_ms   bigint NOT NULL
);

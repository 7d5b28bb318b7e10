-- Extended attributes (issue 6): one row per attribute, keyed by its inode first (the partition key), so an inode's
-- attributes are one partition-scoped scan and go with the inode when it is deleted. namespace: XAttrNamespace code
-- (0 user, 1 trusted, 2 security, 3 system, 4 raw); value may be NULL (an attribute set without a value).
CREATE TABLE xattrs (
  inode_id   bigint   NOT NULL,
  namespace  smallint NOT NULL,
  name       text     COLLATE "C" NOT NULL,
  value      bytea,
  PRIMARY KEY (inode_id, namespace, name)
);

-- Leader block housekeeping (DESIGN s.7-8): the replication queue, dead datanodes, paging a storage's replicas.

-- Blocks whose live replica count differs from their file's replication (under-replicated, excess or missing),
-- partitioned by the file's inode id like every block-level row. File operations and replica reports write the
-- rows of the file they hold locked; the leader pages through the whole queue, most urgent first.
CREATE TABLE replication_queue (
  inode_id       bigint   NOT NULL,
  block_id       bigint   NOT NULL,
  priority       smallint NOT NULL,
  not_before_ms  bigint   NOT NULL,
  PRIMARY KEY (inode_id, block_id)
);
-- Leader housekeeping only: the queue in the order it is worked through.
CREATE INDEX replication_queue_by_priority ON replication_queue (priority, inode_id, block_id);

-- 0: in service. Otherwise the leader declared the datanode dead at that time (wall-clock ms) and removed its
-- replicas; its heartbeats are answered "register again" until it does.
ALTER TABLE datanodes ADD COLUMN declared_dead_at_ms bigint NOT NULL DEFAULT 0;

-- A dead datanode's replicas are removed page by page in (inode, block) order: the storage index carries the order.
DROP INDEX replicas_by_storage;
CREATE INDEX replicas_by_storage ON replicas (storage_id, inode_id, block_id);

-- Data safety (issue 12, design 009).

-- Corrupt replicas, as HDFS tracks them: a replica row whose corrupt_reason is not 0 is known to be corrupt (1: its
-- generation stamp is older than the block's, 2: its length is not the block's, 3: a client's or a datanode's block
-- scanner's checksum check failed). A corrupt replica is never counted as live, never a copy source, never handed to
-- readers while the block has a good one; it is deleted only once the block has its replication in good replicas
-- again (or, as HDFS does, when more good and corrupt replicas exist than needed). corrupt_generation_stamp is the
-- stamp the corrupt replica has on its datanode (a deletion must name it), 0 for good replicas.
ALTER TABLE replicas ADD COLUMN corrupt_reason smallint NOT NULL DEFAULT 0;
ALTER TABLE replicas ADD COLUMN corrupt_generation_stamp bigint NOT NULL DEFAULT 0;
-- Counting blocks with corrupt replicas (getReplicatedBlockStats, dfsadmin -report) reads only those rows.
CREATE INDEX replicas_corrupt ON replicas (inode_id, block_id) WHERE corrupt_reason <> 0;

-- For operators (canopy sql): the corrupt replicas with their datanode and reason.
CREATE VIEW corrupt_replicas AS
SELECT r.inode_id, r.block_id, r.storage_id, s.datanode_uuid,
       CASE r.corrupt_reason WHEN 1 THEN 'GENSTAMP_MISMATCH' WHEN 2 THEN 'SIZE_MISMATCH'
                             WHEN 3 THEN 'CORRUPTION_REPORTED' ELSE 'UNKNOWN' END AS reason,
       r.corrupt_generation_stamp
FROM replicas r LEFT JOIN storages s ON s.storage_id = r.storage_id
WHERE r.corrupt_reason <> 0;

-- Blocks "from the future": replicas datanodes reported of blocks the namespace does not know, whose id or generation
-- stamp lies beyond the id counters the database had when the first of them was seen (the database was restored
-- from an older copy). While any is recorded the cluster stays in safe mode, and no unknown block is deleted, until
-- an operator forces safe mode off (hdfs dfsadmin -safemode forceExit), which empties this table.
CREATE TABLE future_blocks (
  block_id          bigint PRIMARY KEY,
  generation_stamp  bigint NOT NULL,
  num_bytes         bigint NOT NULL,
  datanode_uuid     text   NOT NULL,
  reported_at_ms    bigint NOT NULL
);

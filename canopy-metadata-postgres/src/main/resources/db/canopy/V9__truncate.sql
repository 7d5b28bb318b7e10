-- truncate (issue 6): the length an in-place truncate in progress cuts a block to (HDFS's truncate block), -1 when
-- no truncate is cutting it. The block is then under recovery, and the recovery the leader sends the datanodes
-- carries this length.
ALTER TABLE blocks ADD COLUMN truncate_length bigint NOT NULL DEFAULT -1;

-- Lease recovery (issue 5): the recovery id of a block under lease recovery (HDFS's block recovery id; 0 when none
-- was issued), and the index the leader's lease monitor pages expired leases with (oldest first).
ALTER TABLE blocks ADD COLUMN recovery_id bigint NOT NULL DEFAULT 0;

CREATE INDEX leases_by_renewal ON leases (last_renewed_ms, holder);

-- Pseudo-random partitions for the top directory levels (paper 002, DESIGN s.4): a directory flagged
-- spread_children gives each child the partition id hash(parent id, name) instead of its own id, so the root's
-- children (and grandchildren) do not all land in one shard. Listing such a directory crosses partitions: the
-- partial index holds exactly the spread rows (partition_id <> parent_id), ordered by name within their parent.
ALTER TABLE inodes ADD COLUMN spread_children boolean NOT NULL DEFAULT false;
CREATE INDEX inodes_spread_children ON inodes (parent_id, name) WHERE partition_id <> parent_id;

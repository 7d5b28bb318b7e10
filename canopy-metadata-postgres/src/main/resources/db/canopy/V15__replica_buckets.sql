-- Hash buckets of the replicas of each storage (design 018, step 4; HopsFS's hash-based block reports). The replicas
-- of a storage fall in 16,384 buckets by block id (block_id & 16383). A bucket row holds the XOR of a 64-bit hash of
-- each of its replica rows and their count. A good replica (corrupt_reason = 0) of a COMPLETE block (state 2) hashes
-- (block id, the block's generation stamp, the block's length); any other replica row (corrupt, of an open block, of
-- no block) hashes its block id alone, in a text no report produces. A full block report computes the same hashes from
-- what the datanode lists as finalized: a bucket whose hash and count match holds nothing to reconcile (every replica
-- recorded was reported with its block's stamp and length, nothing else was reported), so a restarted datanode with
-- an unchanged disk costs one read of its bucket rows; a bucket holding a replica of an open block is always looked at.
--
-- The triggers below keep the rows up to date in the transaction that writes replicas or blocks, whatever the code
-- writing them and whatever the order of its statements: each bucket row is always the XOR over the replica rows as
-- they are now, joined with their block rows as they are now. The Java side of the hash is
-- io.canopy.metadata.ReplicaBuckets; the contract test compares both.
CREATE TABLE replica_buckets (
  storage_id  text    NOT NULL,
  bucket      integer NOT NULL,
  hash        bigint  NOT NULL,
  replicas    integer NOT NULL,
  PRIMARY KEY (storage_id, bucket)
);

-- The hash of a good replica of a COMPLETE block: the first 64 bits of the MD5 of "blockId:generationStamp:numBytes"
-- (decimal).
CREATE FUNCTION canopy_replica_hash(block_id bigint, generation_stamp bigint, num_bytes bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ('x' || substr(md5(block_id || ':' || generation_stamp || ':' || num_bytes), 1, 16))::bit(64)::bigint $$;

-- The hash of any other replica row: the first 64 bits of the MD5 of "u:blockId", which no report's replica hashes to
-- (a report's text has two colons).
CREATE FUNCTION canopy_unmatchable_hash(block_id bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ('x' || substr(md5('u:' || block_id), 1, 16))::bit(64)::bigint $$;

-- The triggers below write replica_buckets with one INSERT .. ON CONFLICT each, written out in their PL/pgSQL bodies so
-- that each session plans it once (a SQL-language helper function would be planned again at every call): a hash
-- change is XORed into the bucket row (XOR is its own inverse: a hash goes out as it came in), and the count moves
-- by +1, -1 or 0.

-- A replica row inserted, deleted or marked corrupt / good: its own hash, against its block as it is now.
CREATE FUNCTION canopy_replica_buckets() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO replica_buckets AS b (storage_id, bucket, hash, replicas)
      SELECT OLD.storage_id, (OLD.block_id & 16383)::integer,
        COALESCE((SELECT canopy_replica_hash(OLD.block_id, k.generation_stamp, k.num_bytes) FROM blocks k
                  WHERE k.inode_id = OLD.inode_id AND k.block_id = OLD.block_id AND k.state = 2
                    AND OLD.corrupt_reason = 0),
                 canopy_unmatchable_hash(OLD.block_id)), -1
      ON CONFLICT (storage_id, bucket)
      DO UPDATE SET hash = b.hash # EXCLUDED.hash, replicas = b.replicas + EXCLUDED.replicas;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO replica_buckets AS b (storage_id, bucket, hash, replicas)
      SELECT NEW.storage_id, (NEW.block_id & 16383)::integer,
        COALESCE((SELECT canopy_replica_hash(NEW.block_id, k.generation_stamp, k.num_bytes) FROM blocks k
                  WHERE k.inode_id = NEW.inode_id AND k.block_id = NEW.block_id AND k.state = 2
                    AND NEW.corrupt_reason = 0),
                 canopy_unmatchable_hash(NEW.block_id)), 1
      ON CONFLICT (storage_id, bucket)
      DO UPDATE SET hash = b.hash # EXCLUDED.hash, replicas = b.replicas + EXCLUDED.replicas;
  END IF;
  RETURN NULL;
END $$;

-- A block row inserted, deleted or changed in stamp, length or state while it is or was COMPLETE. Each good replica
-- of a COMPLETE row hashes (block id, stamp, length) instead of the unmatchable hash it would have without that row:
-- the old row takes that difference back from the buckets of its block's good replicas, the new row puts its own in
-- (one statement each, the block's replicas being on different storages). The counts do not change.
CREATE FUNCTION canopy_block_buckets() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.state = 2 THEN
    INSERT INTO replica_buckets AS b (storage_id, bucket, hash, replicas)
      SELECT r.storage_id, (OLD.block_id & 16383)::integer,
        canopy_replica_hash(OLD.block_id, OLD.generation_stamp, OLD.num_bytes)
          # canopy_unmatchable_hash(OLD.block_id), 0
      FROM replicas r WHERE r.inode_id = OLD.inode_id AND r.block_id = OLD.block_id AND r.corrupt_reason = 0
      ON CONFLICT (storage_id, bucket) DO UPDATE SET hash = b.hash # EXCLUDED.hash;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.state = 2 THEN
    INSERT INTO replica_buckets AS b (storage_id, bucket, hash, replicas)
      SELECT r.storage_id, (NEW.block_id & 16383)::integer,
        canopy_replica_hash(NEW.block_id, NEW.generation_stamp, NEW.num_bytes)
          # canopy_unmatchable_hash(NEW.block_id), 0
      FROM replicas r WHERE r.inode_id = NEW.inode_id AND r.block_id = NEW.block_id AND r.corrupt_reason = 0
      ON CONFLICT (storage_id, bucket) DO UPDATE SET hash = b.hash # EXCLUDED.hash;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER replicas_buckets_insert_delete AFTER INSERT OR DELETE ON replicas
  FOR EACH ROW EXECUTE FUNCTION canopy_replica_buckets();
CREATE TRIGGER replicas_buckets_update AFTER UPDATE ON replicas
  FOR EACH ROW WHEN (OLD.corrupt_reason IS DISTINCT FROM NEW.corrupt_reason OR OLD.storage_id <> NEW.storage_id
    OR OLD.block_id <> NEW.block_id OR OLD.inode_id <> NEW.inode_id)
  EXECUTE FUNCTION canopy_replica_buckets();
-- Most block rows are inserted under construction and deleted with their file: only rows that are or were COMPLETE
-- can change a hash.
CREATE TRIGGER blocks_buckets_insert AFTER INSERT ON blocks
  FOR EACH ROW WHEN (NEW.state = 2) EXECUTE FUNCTION canopy_block_buckets();
CREATE TRIGGER blocks_buckets_delete AFTER DELETE ON blocks
  FOR EACH ROW WHEN (OLD.state = 2) EXECUTE FUNCTION canopy_block_buckets();
CREATE TRIGGER blocks_buckets_update AFTER UPDATE ON blocks
  FOR EACH ROW WHEN ((OLD.state = 2 OR NEW.state = 2) AND (OLD.state <> NEW.state
    OR OLD.generation_stamp <> NEW.generation_stamp OR OLD.num_bytes <> NEW.num_bytes
    OR OLD.inode_id <> NEW.inode_id OR OLD.block_id <> NEW.block_id))
  EXECUTE FUNCTION canopy_block_buckets();

-- The buckets of the replicas already recorded.
INSERT INTO replica_buckets (storage_id, bucket, hash, replicas)
  SELECT r.storage_id, (r.block_id & 16383)::integer,
         bit_xor(CASE WHEN r.corrupt_reason = 0 AND b.state = 2
                      THEN canopy_replica_hash(r.block_id, b.generation_stamp, b.num_bytes)
                      ELSE canopy_unmatchable_hash(r.block_id) END),
         count(*)::integer
  FROM replicas r LEFT JOIN blocks b ON b.inode_id = r.inode_id AND b.block_id = r.block_id
  GROUP BY 1, 2;

-- Hash buckets without a shared row in every writing transaction (design 018, "Bucket changes appended, folded by the
-- leader"). V15's triggers updated the bucket row of each replica written, in the writing transaction: every
-- transaction writing replicas of a storage locked some of its 16,384 bucket rows until it committed, large ones many
-- of them in no set order, and the update with its MD5 of a decimal text cost ~65 microseconds of PostgreSQL time per
-- replica written or deleted (a subtree delete took 3.5 times as long as without the triggers).
--
-- Now the triggers append what changes to replica_bucket_changes: plain inserts, which lock nothing another
-- transaction waits for. A storage's buckets are its rows in replica_buckets combined (XOR of the hashes, sum of the
-- counts) with its rows in replica_bucket_changes, read in one statement; the leader folds the changes into
-- replica_buckets in bounded batches, each batch one transaction, so a reader sees a batch either still pending or
-- folded. The hash is PostgreSQL's hashint8extended (no text; its values are stable across versions because hash
-- partitioning stores them), reproduced in io.canopy.metadata.ReplicaBuckets.
CREATE OR REPLACE FUNCTION canopy_replica_hash(block_id bigint, generation_stamp bigint, num_bytes bigint)
  RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT hashint8extended(block_id, hashint8extended(generation_stamp, num_bytes)) $$;

-- 8443514146505322617 is "u-canopy" in ASCII: io.canopy.metadata.ReplicaBuckets.UNMATCHABLE_SEED.
CREATE OR REPLACE FUNCTION canopy_unmatchable_hash(block_id bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT hashint8extended(block_id, 8443514146505322617) $$;

-- The hash of one replica row, given its block row's state, stamp and length (all NULL when there is no block row).
CREATE FUNCTION canopy_recorded_hash(block_id bigint, corrupt_reason smallint, state smallint,
    generation_stamp bigint, num_bytes bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN corrupt_reason = 0 AND state = 2
                    THEN canopy_replica_hash(block_id, generation_stamp, num_bytes)
                    ELSE canopy_unmatchable_hash(block_id) END $$;

DROP TRIGGER replicas_buckets_insert_delete ON replicas;
DROP TRIGGER replicas_buckets_update ON replicas;
DROP TRIGGER blocks_buckets_insert ON blocks;
DROP TRIGGER blocks_buckets_delete ON blocks;
DROP TRIGGER blocks_buckets_update ON blocks;
DROP FUNCTION canopy_replica_buckets();
DROP FUNCTION canopy_block_buckets();

-- Changes not yet folded into replica_buckets: a hash to XOR in and a count to add. No key and no index: rows are
-- only appended, read whole per storage by full reports, and deleted by the fold.
CREATE TABLE replica_bucket_changes (
  storage_id  text    NOT NULL,
  bucket      integer NOT NULL,
  hash        bigint  NOT NULL,
  replicas    integer NOT NULL
);

-- The trigger functions' queries join rows in hand with blocks or replicas by primary key. Their plans are made once
-- per session, sometimes while a table is still small or full of dead rows: without the settings below a plan may
-- scan the whole table at each statement (measured: 156 s instead of 3 s for 20,000 blocks written after as many were
-- deleted).

-- Replicas inserted or deleted, one statement's rows at once (a pipeline's replicas, a block's replicas deleted):
-- each hashed against its block as it is now.
CREATE FUNCTION canopy_replicas_inserted() RETURNS trigger
  LANGUAGE plpgsql SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
  AS $$
BEGIN
  INSERT INTO replica_bucket_changes (storage_id, bucket, hash, replicas)
    SELECT n.storage_id, (n.block_id & 16383)::integer,
      canopy_recorded_hash(n.block_id, n.corrupt_reason, k.state, k.generation_stamp, k.num_bytes), 1
    FROM new_rows n LEFT JOIN blocks k ON k.inode_id = n.inode_id AND k.block_id = n.block_id;
  RETURN NULL;
END $$;

CREATE FUNCTION canopy_replicas_deleted() RETURNS trigger
  LANGUAGE plpgsql SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
  AS $$
BEGIN
  INSERT INTO replica_bucket_changes (storage_id, bucket, hash, replicas)
    SELECT o.storage_id, (o.block_id & 16383)::integer,
      canopy_recorded_hash(o.block_id, o.corrupt_reason, k.state, k.generation_stamp, k.num_bytes), -1
    FROM old_rows o LEFT JOIN blocks k ON k.inode_id = o.inode_id AND k.block_id = o.block_id;
  RETURN NULL;
END $$;

-- Replicas updated (marked corrupt or good): the old rows go out, the new rows come in; what does not change cancels
-- out and is not written.
CREATE FUNCTION canopy_replicas_updated() RETURNS trigger
  LANGUAGE plpgsql SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
  AS $$
BEGIN
  INSERT INTO replica_bucket_changes (storage_id, bucket, hash, replicas)
    SELECT storage_id, bucket, bit_xor(hash), sum(replicas)::integer
    FROM (SELECT o.storage_id, (o.block_id & 16383)::integer AS bucket,
            canopy_recorded_hash(o.block_id, o.corrupt_reason, k.state, k.generation_stamp, k.num_bytes) AS hash,
            -1 AS replicas
          FROM old_rows o LEFT JOIN blocks k ON k.inode_id = o.inode_id AND k.block_id = o.block_id
          UNION ALL
          SELECT n.storage_id, (n.block_id & 16383)::integer,
            canopy_recorded_hash(n.block_id, n.corrupt_reason, k.state, k.generation_stamp, k.num_bytes), 1
          FROM new_rows n LEFT JOIN blocks k ON k.inode_id = n.inode_id AND k.block_id = n.block_id) changed
    GROUP BY storage_id, bucket
    HAVING bit_xor(hash) <> 0 OR sum(replicas) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER replicas_buckets_insert AFTER INSERT ON replicas REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION canopy_replicas_inserted();
CREATE TRIGGER replicas_buckets_delete AFTER DELETE ON replicas REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION canopy_replicas_deleted();
CREATE TRIGGER replicas_buckets_update AFTER UPDATE ON replicas
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION canopy_replicas_updated();

-- A block row inserted, deleted or changed in stamp, length or state while it is or was COMPLETE: each good replica
-- of a COMPLETE row hashes (block id, stamp, length) instead of the unmatchable hash it has without that row, so the
-- old row takes that difference back from its good replicas' buckets and the new row puts its own in; the counts do
-- not change. Row triggers with a WHEN condition: most block rows are written while under construction, and those
-- writes do not call the function at all.
CREATE FUNCTION canopy_block_changed() RETURNS trigger
  LANGUAGE plpgsql SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
  AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.state = 2 THEN
    INSERT INTO replica_bucket_changes (storage_id, bucket, hash, replicas)
      SELECT r.storage_id, (OLD.block_id & 16383)::integer,
        canopy_replica_hash(OLD.block_id, OLD.generation_stamp, OLD.num_bytes)
          # canopy_unmatchable_hash(OLD.block_id), 0
      FROM replicas r WHERE r.inode_id = OLD.inode_id AND r.block_id = OLD.block_id AND r.corrupt_reason = 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.state = 2 THEN
    INSERT INTO replica_bucket_changes (storage_id, bucket, hash, replicas)
      SELECT r.storage_id, (NEW.block_id & 16383)::integer,
        canopy_replica_hash(NEW.block_id, NEW.generation_stamp, NEW.num_bytes)
          # canopy_unmatchable_hash(NEW.block_id), 0
      FROM replicas r WHERE r.inode_id = NEW.inode_id AND r.block_id = NEW.block_id AND r.corrupt_reason = 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER blocks_buckets_insert AFTER INSERT ON blocks
  FOR EACH ROW WHEN (NEW.state = 2) EXECUTE FUNCTION canopy_block_changed();
CREATE TRIGGER blocks_buckets_delete AFTER DELETE ON blocks
  FOR EACH ROW WHEN (OLD.state = 2) EXECUTE FUNCTION canopy_block_changed();
CREATE TRIGGER blocks_buckets_update AFTER UPDATE ON blocks
  FOR EACH ROW WHEN ((OLD.state = 2 OR NEW.state = 2) AND (OLD.state <> NEW.state
    OR OLD.generation_stamp <> NEW.generation_stamp OR OLD.num_bytes <> NEW.num_bytes
    OR OLD.inode_id <> NEW.inode_id OR OLD.block_id <> NEW.block_id))
  EXECUTE FUNCTION canopy_block_changed();

-- The buckets again, with the new hash.
TRUNCATE replica_buckets;
INSERT INTO replica_buckets (storage_id, bucket, hash, replicas)
  SELECT r.storage_id, (r.block_id & 16383)::integer,
         bit_xor(canopy_recorded_hash(r.block_id, r.corrupt_reason, b.state, b.generation_stamp, b.num_bytes)),
         count(*)::integer
  FROM replicas r LEFT JOIN blocks b ON b.inode_id = r.inode_id AND b.block_id = r.block_id
  GROUP BY 1, 2;

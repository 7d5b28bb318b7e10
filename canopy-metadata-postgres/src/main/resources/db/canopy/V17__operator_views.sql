-- Views for operators over the live metadata (issue 19; HopsFS's "the metadata is queryable in SQL"): read with
-- `canopy sql`, whose reader role may select them like the tables. Each reads the tables at the moment of the query;
-- those built on `paths` walk the whole tree from the root at every query (a filter on the path does not shorten the
-- walk), so on a large namespace they take as long as reading every inode. Times are timestamps; sizes in bytes.

-- Every inode with its full path. The root (parent 0, empty name) is '/'.
CREATE VIEW paths AS
  WITH RECURSIVE tree(id, path, depth) AS (
    SELECT id, '/'::text COLLATE "C", 0 FROM inodes WHERE parent_id = 0 AND name = ''
    UNION ALL
    SELECT child.id, CASE WHEN tree.path = '/' THEN '/' || child.name ELSE tree.path || '/' || child.name END,
           tree.depth + 1
    -- a directory's children are in its own partition (the primary key's prefix), or spread over pseudo-random
    -- partitions for the top levels (the inodes_spread_children index): both are index lookups
    FROM inodes child JOIN tree ON child.parent_id = tree.id
      AND (child.partition_id = tree.id OR child.partition_id <> child.parent_id)
    WHERE child.id <> tree.id
  )
  SELECT tree.path, tree.depth, i.id, i.parent_id,
         CASE WHEN i.is_dir THEN 'directory' WHEN i.symlink_target IS NOT NULL THEN 'symlink' ELSE 'file' END AS kind,
         i.owner_name AS owner, i.group_name AS "group", i.permission, i.size, i.replication,
         i.preferred_block_size AS block_size, to_timestamp(i.modification_time / 1000.0) AS modified,
         to_timestamp(i.access_time / 1000.0) AS accessed, i.under_construction AS open_for_write,
         i.symlink_target
  FROM tree JOIN inodes i ON i.id = tree.id;

-- Files only, with where their bytes are: 'database' (a small file kept with its metadata, design 016),
-- 'datanodes' (blocks), or 'empty'; their blocks; their age in days; their size times their replication.
CREATE VIEW files AS
  SELECT p.path, p.id, p.owner, p."group", p.size, p.replication, p.block_size, p.modified, p.accessed,
         p.open_for_write,
         CASE WHEN s.inode_id IS NOT NULL THEN 'database' WHEN b.blocks > 0 THEN 'datanodes' ELSE 'empty' END
           AS stored_in,
         COALESCE(b.blocks, 0) AS blocks,
         round((extract(epoch FROM (now() - p.modified)) / 86400.0)::numeric, 1) AS age_days,
         CASE WHEN s.inode_id IS NOT NULL THEN p.size ELSE p.size * p.replication END AS raw_bytes
  FROM paths p
  LEFT JOIN (SELECT inode_id, count(*) AS blocks FROM blocks WHERE block_id >= 0 GROUP BY inode_id) b
    ON b.inode_id = p.id
  LEFT JOIN small_files s ON s.inode_id = p.id
  WHERE p.kind = 'file';

-- Space and counts per owner and per group (the bytes of the files they own; raw_bytes with replication).
CREATE VIEW usage_by_user AS
  SELECT owner, count(*) AS files, sum(size) AS bytes, sum(raw_bytes) AS raw_bytes,
         count(*) FILTER (WHERE stored_in = 'database') AS small_files
  FROM files GROUP BY owner;

CREATE VIEW usage_by_group AS
  SELECT "group", count(*) AS files, sum(size) AS bytes, sum(raw_bytes) AS raw_bytes,
         count(*) FILTER (WHERE stored_in = 'database') AS small_files
  FROM files GROUP BY "group";

-- Every directory with what lies beneath it, at any depth: files, subdirectories, bytes (largest first when
-- ordered by bytes).
CREATE VIEW directory_sizes AS
  WITH RECURSIVE below(ancestor, id) AS (
    SELECT parent_id, id FROM inodes WHERE parent_id <> 0 AND id <> parent_id
    UNION ALL
    SELECT i.parent_id, below.id FROM below JOIN inodes i ON i.id = below.ancestor
    WHERE i.parent_id <> 0 AND i.id <> i.parent_id
  )
  SELECT d.path, d.id, d.owner,
         count(*) FILTER (WHERE n.is_dir) AS directories,
         count(*) FILTER (WHERE NOT n.is_dir AND n.symlink_target IS NULL) AS files,
         COALESCE(sum(n.size) FILTER (WHERE NOT n.is_dir), 0) AS bytes
  FROM paths d
  LEFT JOIN below ON below.ancestor = d.id
  LEFT JOIN inodes n ON n.id = below.id
  WHERE d.kind = 'directory'
  GROUP BY d.path, d.id, d.owner;

-- Small files against large ones: how many and how many bytes each way of storing holds.
CREATE VIEW file_storage_summary AS
  SELECT stored_in, count(*) AS files, sum(size) AS bytes, round(avg(size)) AS average_bytes
  FROM files GROUP BY stored_in;

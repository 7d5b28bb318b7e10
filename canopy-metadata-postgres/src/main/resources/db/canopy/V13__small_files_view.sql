-- Where each small file's bytes are, for operators (canopy sql; design 016): one row per file stored in the
-- database, with its tier and its length (octet_length reads an out-of-line value's size from its pointer, not the
-- bytes). Join it with inodes on inodes.id = small_files.inode_id for names.
CREATE VIEW small_files AS
  SELECT inode_id, 'inline'::text AS tier, octet_length(data) AS bytes FROM small_file_inline
  UNION ALL
  SELECT inode_id, 'data'::text AS tier, octet_length(data) AS bytes FROM small_file_data;

-- Small files stored with their metadata (issue 15, docs/references.md [SmallFiles] s.5, design 016), keyed by the
-- file's inode id (the partition key of a file's rows), in two tiers as the paper has them:
--   small_file_inline: files of at most 1 KB, one row each; a row this size is never moved out of line (TOAST starts
--     near 2 KB), so the tier stays in the heap pages the buffer cache keeps hot. An empty file is a row of 0 bytes.
--   small_file_data: larger small files, one value each, never compressed (STORAGE EXTERNAL) and moved out of line
--     once a row passes about 2 KB (PostgreSQL's TOAST threshold): the bytes are mostly compressed already, a read
--     copies them as they are, and a range of an out-of-line value can be read without the rest. One value measured
--     as cheap as 8 KB chunks, and cheaper than 2 KB chunks (design 016).
-- A file has a row in one tier or none (its data is on datanodes, or it has none yet).
CREATE TABLE small_file_inline (
  inode_id  bigint PRIMARY KEY,
  data      bytea  NOT NULL
);

CREATE TABLE small_file_data (
  inode_id  bigint PRIMARY KEY,
  data      bytea  NOT NULL
);
ALTER TABLE small_file_data ALTER COLUMN data SET STORAGE EXTERNAL;

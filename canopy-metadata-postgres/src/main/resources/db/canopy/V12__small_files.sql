-- Small files stored with their metadata (issue 15, docs/references.md [SmallFiles] s.5, design 016), keyed by the
-- file's inode id (the partition key of a file's rows), in two tiers as the paper has them:
--   small_file_inline: files of at most 1 KB, one row each; a row this size is never moved out of line (TOAST starts
--     near 2 KB), so the tier stays in the heap pages the buffer cache keeps hot. An empty file is a row of 0 bytes.
--   small_file_chunks: larger small files, cut into chunks of at most 8 KB, numbered from 0; stored out of line
--     without compression (STORAGE EXTERNAL): the bytes are mostly already compressed, and a read copies them as
--     they are.
-- A file has rows in one tier or none (its data is on datanodes, or it has none yet).
CREATE TABLE small_file_inline (
  inode_id  bigint PRIMARY KEY,
  data      bytea  NOT NULL
);

CREATE TABLE small_file_chunks (
  inode_id     bigint  NOT NULL,
  chunk_index  integer NOT NULL CHECK (chunk_index >= 0),
  data         bytea   NOT NULL,
  PRIMARY KEY (inode_id, chunk_index)
);
ALTER TABLE small_file_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

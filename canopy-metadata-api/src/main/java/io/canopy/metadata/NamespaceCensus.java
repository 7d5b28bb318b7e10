package io.canopy.metadata;

/**
 * Optional capability (reached with {@link MetadataStore#capability}): whole-namespace counts for operators, as a
 * namenode's metrics and status page show them. Each count reads a whole table outside any transaction, so callers
 * keep the answer for a while (seconds) and never ask on a client's path.
 */
public interface NamespaceCensus {
  /** The namespace's size: inodes by kind, blocks on datanodes, and files whose bytes are in the database. */
  record Counts(long directories, long files, long symlinks, long blocks, long smallFiles) {
    /** Every inode: HDFS's {@code FilesTotal}. */
    public long inodes() {
      return directories + files + symlinks;
    }
  }

  Counts count() throws StoreException;
}

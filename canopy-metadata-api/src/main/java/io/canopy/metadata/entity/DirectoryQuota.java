package io.canopy.metadata.entity;

/**
 * The quotas of one directory and what its subtree uses against them (HDFS's DirectoryWithQuotaFeature), keyed by
 * the directory's inode id. A limit of -1 means "no limit" for that kind; the usage of both kinds is always kept.
 * Namespace usage counts the directory itself and every inode below it; storage space is bytes times replication
 * (a block still being written counts as a whole preferred block).
 */
public record DirectoryQuota(long inodeId, long namespaceQuota, long storageSpaceQuota, long namespaceUsed,
    long storageSpaceUsed) {

  /** The same limits with usage changed by the deltas. */
  public DirectoryQuota plus(long namespaceDelta, long storageSpaceDelta) {
    return new DirectoryQuota(inodeId, namespaceQuota, storageSpaceQuota, namespaceUsed + namespaceDelta,
        storageSpaceUsed + storageSpaceDelta);
  }

  /** The same usage under new limits. */
  public DirectoryQuota withLimits(long newNamespaceQuota, long newStorageSpaceQuota) {
    return new DirectoryQuota(inodeId, newNamespaceQuota, newStorageSpaceQuota, namespaceUsed, storageSpaceUsed);
  }
}

package io.canopy.namenode.quota;

/**
 * Namespace and storage-space usage (HDFS's QuotaCounts without storage types): inodes, and bytes times replication.
 */
public record Usage(long namespace, long storageSpace) {
  public static final Usage ZERO = new Usage(0, 0);

  public Usage plus(Usage other) {
    return new Usage(namespace + other.namespace, storageSpace + other.storageSpace);
  }

  public Usage negated() {
    return new Usage(-namespace, -storageSpace);
  }
}

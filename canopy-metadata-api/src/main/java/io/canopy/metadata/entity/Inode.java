package io.canopy.metadata.entity;

import java.util.Objects;

/**
 * One row per path component (docs/references.md [Design] s.4). Files and directories share the row; file-only fields
 * are zero for directories. {@code spreadsChildren} marks a top-level directory whose children get pseudo-random
 * partition ids (fixed when the directory is created, so moves never re-key its children). {@code size} is the length
 * of a file's complete blocks plus what the writer reported so far. {@code hasQuota} marks a directory with a namespace
 * or storage-space quota: its limits and usage are a row of the quota table keyed by its id, and every operation below
 * it that changes usage updates that row (see {@code docs/design/008-quotas.md}).
 */
public record Inode(
    long id,
    long partitionId,
    long parentId,
    String name,
    boolean directory,
    short permission,
    String owner,
    String group,
    long modificationTime,
    long accessTime,
    long size,
    short replication,
    long preferredBlockSize,
    byte storagePolicy,
    boolean underConstruction,
    String clientName,
    String clientMachine,
    String symlinkTarget,
    long childrenCount,
    boolean spreadsChildren,
    boolean hasQuota) {

  public Inode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(group, "group");
    if (childrenCount < 0) {
      throw new IllegalArgumentException("negative children count " + childrenCount + " for inode " + id);
    }
    if (hasQuota && !directory) {
      throw new IllegalArgumentException("inode " + id + " is a file: only directories have quotas");
    }
  }

  /** A directory that keeps its children in its own partition, or a file. */
  public Inode(long id, long partitionId, long parentId, String name, boolean directory, short permission,
      String owner, String group, long modificationTime, long accessTime, long size, short replication,
      long preferredBlockSize, byte storagePolicy, boolean underConstruction, String clientName,
      String clientMachine, String symlinkTarget, long childrenCount) {
    this(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime, accessTime, size,
        replication, preferredBlockSize, storagePolicy, underConstruction, clientName, clientMachine, symlinkTarget,
        childrenCount, false, false);
  }

  /** A directory or file without a quota (see {@link #withQuota}). */
  public Inode(long id, long partitionId, long parentId, String name, boolean directory, short permission,
      String owner, String group, long modificationTime, long accessTime, long size, short replication,
      long preferredBlockSize, byte storagePolicy, boolean underConstruction, String clientName,
      String clientMachine, String symlinkTarget, long childrenCount, boolean spreadsChildren) {
    this(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime, accessTime, size,
        replication, preferredBlockSize, storagePolicy, underConstruction, clientName, clientMachine, symlinkTarget,
        childrenCount, spreadsChildren, false);
  }

  /** The same inode with its quota flag set or cleared (the quota row itself is written next to it). */
  public Inode withQuota(boolean quota) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, quota);
  }

  public Inode withSpreadChildren(boolean spread) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spread, hasQuota);
  }

  /** A symbolic link: neither file nor directory, its target is {@link #symlinkTarget()}. */
  public boolean isSymlink() {
    return symlinkTarget != null;
  }

  public InodeKey key() {
    return new InodeKey(partitionId, parentId, name);
  }

  public Inode withLocation(long newPartitionId, long newParentId, String newName) {
    return new Inode(id, newPartitionId, newParentId, newName, directory, permission, owner, group,
        modificationTime, accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction,
        clientName, clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withPermission(short newPermission) {
    return new Inode(id, partitionId, parentId, name, directory, newPermission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withOwnership(String newOwner, String newGroup) {
    return new Inode(id, partitionId, parentId, name, directory, permission, newOwner, newGroup, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withTimes(long newModificationTime, long newAccessTime) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, newModificationTime,
        newAccessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withStoragePolicy(byte newStoragePolicy) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, newStoragePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withReplication(short newReplication) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, newReplication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withSize(long newSize) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, newSize, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  public Inode withChildrenCount(long newChildrenCount) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
        clientMachine, symlinkTarget, newChildrenCount, spreadsChildren, hasQuota);
  }

  /** The open file held by another lease holder (lease recovery reassigns it); the writer's machine is kept. */
  public Inode reassigned(String newClientName) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, newClientName,
        clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota);
  }

  /** The closed file opened again (append, truncate) for {@code newClientName} on {@code newClientMachine}. */
  public Inode reopened(String newClientName, String newClientMachine) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
        accessTime, size, replication, preferredBlockSize, storagePolicy, true, newClientName, newClientMachine,
        symlinkTarget, childrenCount, spreadsChildren);
  }

  /** The file closed: no writer, no lease holder. */
  public Inode closed(long newSize, long newModificationTime) {
    return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, newModificationTime,
        accessTime, newSize, replication, preferredBlockSize, storagePolicy, false, null, null, symlinkTarget,
        childrenCount, spreadsChildren, hasQuota);
  }
}

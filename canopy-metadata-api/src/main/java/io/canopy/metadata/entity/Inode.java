package io.canopy.metadata.entity;

import java.util.Objects;

/**
 * One row per path component (docs/references.md [Design] s.4). Files and directories share the row; file-only fields
 * are zero for directories. {@code spreadsChildren} marks a top-level directory whose children get pseudo-random
 * partition ids (fixed when the directory is created, so moves never re-key its children). {@code size} is the length
 * of a file's complete blocks plus what the writer reported so far. {@code hasQuota} marks a directory with a namespace
 * or storage-space quota: its limits and usage are a row of the quota table keyed by its id, and every operation below
 * it that changes usage updates that row (see {@code docs/design/008-quotas.md}). Build one by field name with
 * {@link #builder()}, or from another with {@link #toBuilder()}.
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
    boolean hasQuota,
    long subtreeLockOwner) {

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
    if (subtreeLockOwner < 0) {
      throw new IllegalArgumentException("negative subtree lock owner " + subtreeLockOwner + " for inode " + id);
    }
  }

  /** No subtree operation holds this inode's subtree ({@link #subtreeLockOwner()}). */
  public static final long NO_SUBTREE_LOCK = 0;

  /**
   * Whether a subtree operation (design 017) holds this directory and everything below it: its owner, the id of the
   * namenode running it, is {@link #subtreeLockOwner()}.
   */
  public boolean subtreeLocked() {
    return subtreeLockOwner != NO_SUBTREE_LOCK;
  }

  /** The same inode with its subtree lock set to {@code owner} (a namenode id) or cleared ({@link #NO_SUBTREE_LOCK}). */
  public Inode withSubtreeLockOwner(long owner) {
    return toBuilder().subtreeLockOwner(owner).build();
  }

  /**
   * A builder with every field zero, false or null (no quota, children in the directory's own partition); name, owner
   * and group must be set before {@link Builder#build()}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this inode's fields, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The same inode with its quota flag set or cleared (the quota row itself is written next to it). */
  public Inode withQuota(boolean quota) {
    return toBuilder().hasQuota(quota).build();
  }

  public Inode withSpreadChildren(boolean spread) {
    return toBuilder().spreadsChildren(spread).build();
  }

  /** A symbolic link: neither file nor directory, its target is {@link #symlinkTarget()}. */
  public boolean isSymlink() {
    return symlinkTarget != null;
  }

  public InodeKey key() {
    return new InodeKey(partitionId, parentId, name);
  }

  public Inode withLocation(long newPartitionId, long newParentId, String newName) {
    return toBuilder().partitionId(newPartitionId).parentId(newParentId).name(newName).build();
  }

  public Inode withPermission(short newPermission) {
    return toBuilder().permission(newPermission).build();
  }

  public Inode withOwnership(String newOwner, String newGroup) {
    return toBuilder().owner(newOwner).group(newGroup).build();
  }

  public Inode withTimes(long newModificationTime, long newAccessTime) {
    return toBuilder().modificationTime(newModificationTime).accessTime(newAccessTime).build();
  }

  public Inode withStoragePolicy(byte newStoragePolicy) {
    return toBuilder().storagePolicy(newStoragePolicy).build();
  }

  public Inode withReplication(short newReplication) {
    return toBuilder().replication(newReplication).build();
  }

  public Inode withSize(long newSize) {
    return toBuilder().size(newSize).build();
  }

  public Inode withChildrenCount(long newChildrenCount) {
    return toBuilder().childrenCount(newChildrenCount).build();
  }

  /** The open file held by another lease holder (lease recovery reassigns it); the writer's machine is kept. */
  public Inode reassigned(String newClientName) {
    return toBuilder().clientName(newClientName).build();
  }

  /** The closed file opened again (append, truncate) for {@code newClientName} on {@code newClientMachine}. */
  public Inode reopened(String newClientName, String newClientMachine) {
    // hasQuota cleared as it always was (a file, the only thing reopened, has none)
    return toBuilder().underConstruction(true).clientName(newClientName).clientMachine(newClientMachine)
        .hasQuota(false).build();
  }

  /** The file closed: no writer, no lease holder. */
  public Inode closed(long newSize, long newModificationTime) {
    return toBuilder().modificationTime(newModificationTime).size(newSize).underConstruction(false).clientName(null)
        .clientMachine(null).build();
  }

  /**
   * Builds an inode field by field, by name: what {@link #builder()} and {@link #toBuilder()} return. The record's
   * checks run in {@link #build()}.
   */
  public static final class Builder {
    private long id;
    private long partitionId;
    private long parentId;
    private String name;
    private boolean directory;
    private short permission;
    private String owner;
    private String group;
    private long modificationTime;
    private long accessTime;
    private long size;
    private short replication;
    private long preferredBlockSize;
    private byte storagePolicy;
    private boolean underConstruction;
    private String clientName;
    private String clientMachine;
    private String symlinkTarget;
    private long childrenCount;
    private boolean spreadsChildren;
    private boolean hasQuota;
    private long subtreeLockOwner;

    private Builder() {
    }

    private Builder(Inode inode) {
      id = inode.id;
      partitionId = inode.partitionId;
      parentId = inode.parentId;
      name = inode.name;
      directory = inode.directory;
      permission = inode.permission;
      owner = inode.owner;
      group = inode.group;
      modificationTime = inode.modificationTime;
      accessTime = inode.accessTime;
      size = inode.size;
      replication = inode.replication;
      preferredBlockSize = inode.preferredBlockSize;
      storagePolicy = inode.storagePolicy;
      underConstruction = inode.underConstruction;
      clientName = inode.clientName;
      clientMachine = inode.clientMachine;
      symlinkTarget = inode.symlinkTarget;
      childrenCount = inode.childrenCount;
      spreadsChildren = inode.spreadsChildren;
      hasQuota = inode.hasQuota;
      subtreeLockOwner = inode.subtreeLockOwner;
    }

    public Builder id(long value) {
      id = value;
      return this;
    }

    public Builder partitionId(long value) {
      partitionId = value;
      return this;
    }

    public Builder parentId(long value) {
      parentId = value;
      return this;
    }

    public Builder name(String value) {
      name = value;
      return this;
    }

    public Builder directory(boolean value) {
      directory = value;
      return this;
    }

    public Builder permission(short value) {
      permission = value;
      return this;
    }

    public Builder owner(String value) {
      owner = value;
      return this;
    }

    public Builder group(String value) {
      group = value;
      return this;
    }

    public Builder modificationTime(long value) {
      modificationTime = value;
      return this;
    }

    public Builder accessTime(long value) {
      accessTime = value;
      return this;
    }

    public Builder size(long value) {
      size = value;
      return this;
    }

    public Builder replication(short value) {
      replication = value;
      return this;
    }

    public Builder preferredBlockSize(long value) {
      preferredBlockSize = value;
      return this;
    }

    public Builder storagePolicy(byte value) {
      storagePolicy = value;
      return this;
    }

    public Builder underConstruction(boolean value) {
      underConstruction = value;
      return this;
    }

    public Builder clientName(String value) {
      clientName = value;
      return this;
    }

    public Builder clientMachine(String value) {
      clientMachine = value;
      return this;
    }

    public Builder symlinkTarget(String value) {
      symlinkTarget = value;
      return this;
    }

    public Builder childrenCount(long value) {
      childrenCount = value;
      return this;
    }

    public Builder spreadsChildren(boolean value) {
      spreadsChildren = value;
      return this;
    }

    public Builder hasQuota(boolean value) {
      hasQuota = value;
      return this;
    }

    public Builder subtreeLockOwner(long value) {
      subtreeLockOwner = value;
      return this;
    }

    public Inode build() {
      return new Inode(id, partitionId, parentId, name, directory, permission, owner, group, modificationTime,
          accessTime, size, replication, preferredBlockSize, storagePolicy, underConstruction, clientName,
          clientMachine, symlinkTarget, childrenCount, spreadsChildren, hasQuota,
          subtreeLockOwner);
    }
  }
}

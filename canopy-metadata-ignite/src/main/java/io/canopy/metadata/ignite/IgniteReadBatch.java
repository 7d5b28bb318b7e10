package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.metadata.entity.UcReplica;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A batch of reads on Ignite, run in the order added when executed (so a read after a locking one sees the state under
 * that lock). Not yet one round trip: each read is its own request, counted as such; sending the unlocked reads of a
 * batch together is the next step of design 020.
 */
final class IgniteReadBatch implements ReadBatch {
  /** One read of the batch. */
  private interface Read<T> {
    T run() throws StoreException;
  }

  private static final class Slot<T> implements Result<T> {
    private final Read<T> read;
    private boolean done;
    private T value;

    Slot(Read<T> read) {
      this.read = read;
    }

    void run() throws StoreException {
      value = read.run();
      done = true;
    }

    @Override
    public T get() {
      if (!done) {
        throw new IllegalStateException("the batch has not executed yet");
      }
      return value;
    }
  }

  private final IgniteTransaction transaction;
  private final List<Slot<?>> slots = new ArrayList<>();
  private boolean executed;

  IgniteReadBatch(IgniteTransaction transaction) {
    this.transaction = transaction;
  }

  private <T> Result<T> add(Read<T> read) {
    if (executed) {
      throw new IllegalStateException("a batch executes once");
    }
    Slot<T> slot = new Slot<>(read);
    slots.add(slot);
    return slot;
  }

  @Override
  public Result<Optional<Inode>> inode(InodeKey key, LockMode lock) {
    return add(() -> transaction.inodes().get(key, lock));
  }

  @Override
  public Result<Map<InodeKey, Inode>> inodes(List<InodeKey> keys, LockMode lock) {
    List<InodeKey> copy = List.copyOf(keys);
    return add(() -> transaction.inodes().getAll(copy, lock));
  }

  @Override
  public Result<Optional<Inode>> inodeById(long inodeId, LockMode lock) {
    return add(() -> transaction.inodes().getById(inodeId, lock));
  }

  @Override
  public Result<List<Inode>> children(long partitionId, long parentId, String startAfter, int limit, LockMode lock) {
    return add(() -> transaction.inodes().children(partitionId, parentId, startAfter, limit, lock));
  }

  @Override
  public Result<List<Inode>> spreadChildren(long parentId, String startAfter, int limit, LockMode lock) {
    return add(() -> transaction.inodes().spreadChildren(parentId, startAfter, limit, lock));
  }

  @Override
  public Result<Long> countChildren(long partitionId, long parentId, String startAfter) {
    return add(() -> transaction.igniteInodes().countChildren(partitionId, parentId, startAfter));
  }

  @Override
  public Result<Long> countSpreadChildren(long parentId, String startAfter) {
    return add(() -> transaction.igniteInodes().countSpreadChildren(parentId, startAfter));
  }

  @Override
  public Result<List<Block>> blocksOfFile(long inodeId) {
    return add(() -> transaction.blocks().ofFile(inodeId));
  }

  @Override
  public Result<List<Replica>> replicasOfFile(long inodeId) {
    return add(() -> transaction.replicas().ofFile(inodeId));
  }

  @Override
  public Result<List<UcReplica>> ucReplicasOfFile(long inodeId) {
    return add(() -> transaction.ucReplicas().ofFile(inodeId));
  }

  @Override
  public Result<Optional<byte[]>> smallFileData(long inodeId) {
    return add(() -> transaction.smallFiles().get(inodeId));
  }

  @Override
  public Result<Optional<Lease>> lease(String holder) {
    return add(() -> transaction.leases().get(holder, LockMode.NONE));
  }

  @Override
  public Result<Optional<RetryEntry>> retryEntry(RetryKey key) {
    return add(() -> transaction.retryCache().get(key));
  }

  @Override
  public Result<List<ExtendedAttribute>> xattrsOf(long inodeId) {
    return add(() -> transaction.xattrs().ofInode(inodeId));
  }

  @Override
  public Result<Optional<DirectoryQuota>> quota(long inodeId, LockMode lock) {
    return add(() -> transaction.quotas().get(inodeId, lock));
  }

  @Override
  public Result<Boolean> anyQuota() {
    return add(() -> transaction.quotas().any());
  }

  @Override
  public Result<OptionalLong> longVariable(String name) {
    return add(() -> transaction.variables().getLong(name, LockMode.NONE));
  }

  @Override
  public boolean isEmpty() {
    return slots.isEmpty();
  }

  @Override
  public void execute() throws StoreException {
    if (executed) {
      throw new IllegalStateException("a batch executes once");
    }
    executed = true;
    for (Slot<?> slot : slots) {
      slot.run();
    }
  }
}

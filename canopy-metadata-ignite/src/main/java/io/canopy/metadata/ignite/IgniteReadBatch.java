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
 * that lock). Not yet one round trip: each read is its own request, counted as such. In a read-only transaction,
 * where nothing is locked and order does not matter, the batch's queries (directories' children, a file's blocks,
 * replicas and attributes) run side by side on the store's scan threads ({@link IgniteScans}): each waits for the
 * cluster's safe time (design 020), and waiting for all of them at once costs about one wait instead of one each.
 */
final class IgniteReadBatch implements ReadBatch {
  /** One read of the batch. */
  private interface Read<T> {
    T run() throws StoreException;
  }

  private static final class Slot<T> implements Result<T> {
    private final Read<T> read;
    /** A query (a directory's children, a file's rows): may run beside the batch's others when nothing is locked. */
    private final boolean scan;
    private volatile boolean done;
    private volatile T value;

    Slot(Read<T> read, boolean scan) {
      this.read = read;
      this.scan = scan;
    }

    void run() throws StoreException {
      set(read.run());
    }

    void set(T read) {
      value = read;
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
  /** The pages of children asked for, by their slot: in a read-only transaction they are read in one query. */
  private final Map<Slot<List<Inode>>, IgniteInodeTable.PageRequest> pages = new java.util.LinkedHashMap<>();
  private boolean executed;

  IgniteReadBatch(IgniteTransaction transaction) {
    this.transaction = transaction;
  }

  private <T> Result<T> add(Read<T> read) {
    return add(read, false);
  }

  private <T> Result<T> add(Read<T> read, boolean scan) {
    if (executed) {
      throw new IllegalStateException("a batch executes once");
    }
    Slot<T> slot = new Slot<>(read, scan);
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
    Slot<List<Inode>> slot = (Slot<List<Inode>>) add(() -> transaction.inodes().children(partitionId, parentId,
        startAfter, limit, lock), true);
    pages.put(slot, new IgniteInodeTable.PageRequest(partitionId, parentId, startAfter, limit));
    return slot;
  }

  @Override
  public Result<List<Inode>> spreadChildren(long parentId, String startAfter, int limit, LockMode lock) {
    return add(() -> transaction.inodes().spreadChildren(parentId, startAfter, limit, lock), true);
  }

  @Override
  public Result<Long> countChildren(long partitionId, long parentId, String startAfter) {
    return add(() -> transaction.igniteInodes().countChildren(partitionId, parentId, startAfter), true);
  }

  @Override
  public Result<Long> countSpreadChildren(long parentId, String startAfter) {
    return add(() -> transaction.igniteInodes().countSpreadChildren(parentId, startAfter), true);
  }

  @Override
  public Result<List<Block>> blocksOfFile(long inodeId) {
    return add(() -> transaction.blocks().ofFile(inodeId), true);
  }

  @Override
  public Result<List<Replica>> replicasOfFile(long inodeId) {
    return add(() -> transaction.replicas().ofFile(inodeId), true);
  }

  @Override
  public Result<List<UcReplica>> ucReplicasOfFile(long inodeId) {
    return add(() -> transaction.ucReplicas().ofFile(inodeId), true);
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
    return add(() -> transaction.xattrs().ofInode(inodeId), true);
  }

  @Override
  public Result<Optional<DirectoryQuota>> quota(long inodeId, LockMode lock) {
    return add(() -> transaction.quotas().get(inodeId, lock));
  }

  @Override
  public Result<Boolean> anyQuota() {
    return add(() -> transaction.quotas().any(), true);
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
    if (transaction.readOnly() && pages.size() > 1) {
      // nothing is locked and order does not matter: every page of children in one query
      List<Slot<List<Inode>>> asked = new ArrayList<>(pages.keySet());
      List<List<Inode>> read = transaction.igniteInodes().unlockedChildrenPages(new ArrayList<>(pages.values()));
      for (int i = 0; i < asked.size(); i++) {
        asked.get(i).set(read.get(i));
      }
    }
    List<Slot<?>> scans = transaction.readOnly()
        ? slots.stream().filter(slot -> slot.scan && !slot.done).toList() : List.of();
    if (scans.size() < 2) {
      for (Slot<?> slot : slots) {
        if (!slot.done) {
          slot.run();
        }
      }
      return;
    }
    // In the batch's order: a scan starts when reached, a key-value read runs in this thread, so every read begins
    // after the key-value reads before it ended (a file's rows are read after its inode: a file seen closed has its
    // closed rows). Every scan is waited for, whatever failed, so that none still uses the session afterwards.
    List<IgniteScans.Running> running = new ArrayList<>(scans.size());
    Exception failed = null;
    try {
      for (Slot<?> slot : slots) {
        if (slot.done) {
          continue;
        }
        if (slot.scan) {
          running.add(transaction.scans().start(slot::run));
        } else {
          slot.run();
        }
      }
    } catch (StoreException | RuntimeException e) {
      failed = e;
    }
    for (IgniteScans.Running scan : running) {
      try {
        scan.await();
      } catch (StoreException | RuntimeException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed instanceof StoreException store) {
      throw store;
    }
    if (failed != null) {
      throw (RuntimeException) failed;
    }
  }
}

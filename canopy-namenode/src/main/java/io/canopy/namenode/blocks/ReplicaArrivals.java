package io.canopy.namenode.blocks;

import com.google.common.base.Preconditions;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Wakes a complete() waiting inside this namenode for the datanodes' confirmation of a file's last block as soon as
 * this namenode has applied a replica report of that file, instead of it sleeping and polling the database. Every
 * namenode receives every datanode's reports, so the report a waiter needs is applied (and signalled) locally; a
 * waiter still re-checks the database after its own timeout, so a signal that never comes costs time, not
 * correctness.
 *
 * <p>A waiter registers ({@link #expect}) <em>before</em> it reads the file, so a report applied between that read
 * and its wait is not missed. At most one entry per file being waited for; entries leave when signalled or when
 * their waiter gives up ({@link Expectation#close}), so the map is bounded by the waiting handlers.
 *
 * <p>It also remembers the blocks of the last {@value #RECENT_BLOCKS} or so finalized-replica reports it applied
 * ({@link #finalizedReported}), so a complete() can tell whether a report of its last block has come at all before
 * it spends a transaction on finding out. A block id is kept in the slot it maps to until another block's report
 * takes the slot. Only a hint: it says a report of the block was applied, not at which stamp or length, nor whether
 * the replica was found good; complete() decides in the database either way.
 *
 * <p>Each datanode's incremental reports are applied by one namenode only (design 018). The others receive them too
 * and, without applying them, wake the waiters of the reported blocks ({@link #reportedElsewhere}) and remember
 * them the same way ({@link #reportedElsewhereRecently}): a complete() woken so knows the applier's commit follows
 * within milliseconds, and polls for it in short steps.
 */
public final class ReplicaArrivals {
  /** Slots of the recently reported blocks (a power of two). */
  static final int RECENT_BLOCKS = 1 << 16;
  /** A slot no block has taken yet. */
  private static final long EMPTY = Long.MIN_VALUE;
  private final ConcurrentHashMap<Long, CountDownLatch> waiting = new ConcurrentHashMap<>();
  /** The same latches, by the last block of the file waited for (when the waiter gave it). */
  private final ConcurrentHashMap<Long, CountDownLatch> waitingByBlock = new ConcurrentHashMap<>();
  private final AtomicLongArray recentBlocks = emptySlots();
  private final AtomicLongArray recentElsewhere = emptySlots();

  private static AtomicLongArray emptySlots() {
    AtomicLongArray slots = new AtomicLongArray(RECENT_BLOCKS);
    for (int i = 0; i < RECENT_BLOCKS; i++) {
      slots.set(i, EMPTY);
    }
    return slots;
  }

  /** One registration of interest in the next report applied to a file. */
  public final class Expectation implements AutoCloseable {
    private final long fileId;
    private final long blockId;
    private final CountDownLatch latch;

    private Expectation(long fileId, long blockId, CountDownLatch latch) {
      this.fileId = fileId;
      this.blockId = blockId;
      this.latch = latch;
    }

    /** Waits until a report of the file is applied after {@link #expect}, or the timeout; answers which. */
    public boolean await(long timeoutMs) throws InterruptedException {
      return latch.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** {@link #await(long)} with a timeout in nanoseconds. */
    public boolean awaitNanos(long timeoutNanos) throws InterruptedException {
      return latch.await(timeoutNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
      waiting.remove(fileId, latch);
      if (blockId != EMPTY) {
        waitingByBlock.remove(blockId, latch);
      }
    }
  }

  /** Registers interest in the next replica report applied to {@code fileId} (an inode id, above 0). */
  public Expectation expect(long fileId) {
    Preconditions.checkArgument(fileId > 0, "file id %s", fileId);
    return new Expectation(fileId, EMPTY, waiting.computeIfAbsent(fileId, id -> new CountDownLatch(1)));
  }

  /**
   * {@link #expect(long)}, also woken when another namenode is about to apply a finalized-replica report of the
   * file's last block {@code blockId} ({@link #reportedElsewhere}).
   */
  public Expectation expect(long fileId, long blockId) {
    Preconditions.checkArgument(fileId > 0, "file id %s", fileId);
    if (blockId == EMPTY) {
      return expect(fileId);
    }
    CountDownLatch latch = waiting.computeIfAbsent(fileId, id -> new CountDownLatch(1));
    waitingByBlock.merge(blockId, latch, (old, mine) -> old.getCount() == 0 ? mine : old);
    return new Expectation(fileId, blockId, latch);
  }

  /** A replica report of {@code fileId} was applied: wakes whoever waits for one. */
  public void applied(long fileId) {
    CountDownLatch latch = waiting.remove(fileId);
    if (latch != null) {
      latch.countDown();
    }
  }

  /**
   * A datanode reported a finalized replica of {@code blockId} that another namenode applies (design 018): wakes
   * whoever waits for the block's file, and remembers the block for {@link #reportedElsewhereRecently}.
   */
  public void reportedElsewhere(long blockId) {
    if (blockId == EMPTY) {
      return;
    }
    recentElsewhere.set(slot(blockId), blockId);
    CountDownLatch latch = waitingByBlock.remove(blockId);
    if (latch != null) {
      latch.countDown();
    }
  }

  /** Whether a finalized replica of {@code blockId} that another namenode applies was reported here recently. */
  public boolean reportedElsewhereRecently(long blockId) {
    return blockId != EMPTY && recentElsewhere.get(slot(blockId)) == blockId;
  }

  /** A finalized-replica report of {@code blockId} was applied by this namenode (good or found corrupt). */
  public void finalizedReported(long blockId) {
    if (blockId != EMPTY) {
      recentBlocks.set(slot(blockId), blockId);
    }
  }

  /**
   * Whether this namenode applied a finalized-replica report of {@code blockId} recently. False may also mean long
   * ago, or before this namenode started: the caller waits a little for a report, then asks the database anyway.
   */
  public boolean finalizedReportedRecently(long blockId) {
    return blockId != EMPTY && recentBlocks.get(slot(blockId)) == blockId;
  }

  private static int slot(long blockId) {
    return (int) (blockId & (RECENT_BLOCKS - 1));
  }

  /** Files waited for now (for tests: the map must not grow). */
  public int waitingFiles() {
    return waiting.size() + waitingByBlock.size();
  }
}

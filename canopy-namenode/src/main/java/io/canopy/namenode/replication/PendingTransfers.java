package io.canopy.namenode.replication;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The block copies the leader asked for and has not seen arrive yet: at most one per block, each waiting for its
 * source's next heartbeat, then in flight. Kept in memory on the leader only: the queue row of a block stays until
 * the block really has its replication, so a new leader (which starts empty) simply asks again. A copy that does
 * not arrive within the timeout is forgotten, and the block is copied again on a later run.
 */
public final class PendingTransfers {
  /** A datanode storage a new replica is written to. */
  public record Target(String datanodeUuid, String storageId) {
  }

  /** One DNA_TRANSFER: copy a block from the source to the targets. {@code sentAtMs} is 0 until it is handed out. */
  public record Transfer(long inodeId, long blockId, long numBytes, long generationStamp, String sourceUuid,
      List<Target> targets, long scheduledAtMs, long sentAtMs) {
    public Transfer {
      targets = List.copyOf(targets);
      if (targets.isEmpty()) {
        throw new IllegalArgumentException("transfer of block " + blockId + " has no target");
      }
    }

    public boolean sent() {
      return sentAtMs != 0;
    }

    Transfer sentAt(long nowMs) {
      return new Transfer(inodeId, blockId, numBytes, generationStamp, sourceUuid, targets, scheduledAtMs, nowMs);
    }
  }

  private final LongSupplier clockMs;
  private final long timeoutMs;
  /** By block id, in scheduling order (heartbeats hand out the oldest first). */
  private final Map<Long, Transfer> byBlock = new LinkedHashMap<>();
  private long term;

  public PendingTransfers(LongSupplier clockMs, long timeoutMs) {
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("pending transfer timeout must be positive, got " + timeoutMs);
    }
    this.clockMs = clockMs;
    this.timeoutMs = timeoutMs;
  }

  /** Starts leader term {@code newTerm}: what an earlier term scheduled is forgotten. */
  public synchronized void startTerm(long newTerm) {
    if (newTerm != term) {
      byBlock.clear();
      term = newTerm;
    }
  }

  public synchronized long term() {
    return term;
  }

  /** The pending transfer of a block, or null. */
  public synchronized Transfer of(long blockId) {
    return byBlock.get(blockId);
  }

  /** Schedules a transfer for the source's next heartbeat, replacing any earlier one of the same block. */
  public synchronized void schedule(Transfer transfer) {
    byBlock.remove(transfer.blockId());
    byBlock.put(transfer.blockId(), transfer);
  }

  /** Forgets the transfer of a block (it arrived, or is not needed any more). */
  public synchronized void forget(long blockId) {
    byBlock.remove(blockId);
  }

  /** Transfers from {@code sourceUuid}, waiting or in flight. */
  public synchronized int load(String sourceUuid) {
    int load = 0;
    for (Transfer transfer : byBlock.values()) {
      if (transfer.sourceUuid().equals(sourceUuid)) {
        load++;
      }
    }
    return load;
  }

  /**
   * Hands out, for a heartbeat of {@code sourceUuid}, the oldest waiting transfers it is the source of, so that at
   * most {@code maxInFlight} of its transfers are in flight; they count as in flight from now on.
   */
  public synchronized List<Transfer> takeForHeartbeat(String sourceUuid, int maxInFlight) {
    long now = clockMs.getAsLong();
    int inFlight = 0;
    for (Transfer transfer : byBlock.values()) {
      if (transfer.sent() && transfer.sourceUuid().equals(sourceUuid)) {
        inFlight++;
      }
    }
    List<Transfer> taken = new ArrayList<>();
    for (Map.Entry<Long, Transfer> entry : byBlock.entrySet()) {
      if (inFlight + taken.size() >= maxInFlight) {
        break;
      }
      Transfer transfer = entry.getValue();
      if (!transfer.sent() && transfer.sourceUuid().equals(sourceUuid)) {
        Transfer sent = transfer.sentAt(now);
        entry.setValue(sent);
        taken.add(sent);
      }
    }
    return taken;
  }

  /** Removes and returns the transfers scheduled longer than the timeout ago. */
  public synchronized List<Transfer> expire() {
    long now = clockMs.getAsLong();
    List<Transfer> expired = new ArrayList<>();
    for (Iterator<Transfer> it = byBlock.values().iterator(); it.hasNext(); ) {
      Transfer transfer = it.next();
      if (now - transfer.scheduledAtMs() >= timeoutMs) {
        expired.add(transfer);
        it.remove();
      }
    }
    return expired;
  }

  /** A copy of every pending transfer. */
  public synchronized List<Transfer> all() {
    return List.copyOf(byBlock.values());
  }

  public synchronized int size() {
    return byBlock.size();
  }
}

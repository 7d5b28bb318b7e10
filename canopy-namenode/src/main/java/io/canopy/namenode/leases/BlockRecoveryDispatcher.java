package io.canopy.namenode.leases;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.leader.DatanodeCommandSource;
import io.canopy.namenode.ops.BlockRecoveryTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand.RecoveringBlock;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's block recoveries in flight, one attempt per file: the attempt's primary datanode gets a
 * {@code DNA_RECOVERBLOCK} command in its next heartbeat answer, once; an attempt not committed by its deadline is
 * over, and the lease monitor starts another (new recovery id, another primary). What it holds is a cache of the
 * leader's own attempts in its current term: the database says which files are under recovery, and a new leader
 * starts every one afresh.
 */
public final class BlockRecoveryDispatcher implements DatanodeCommandSource {
  /** One attempt; {@code primaryUuid} is null when no datanode holding the block was alive to take it. */
  private static final class Attempt {
    final BlockRecoveryTask task;
    final long term;
    final String primaryUuid;
    final RecoveringBlock command;
    final long deadlineMs;
    final Set<String> triedPrimaries;
    boolean sent;

    Attempt(BlockRecoveryTask task, long term, String primaryUuid, RecoveringBlock command, long deadlineMs,
        Set<String> triedPrimaries) {
      this.task = task;
      this.term = term;
      this.primaryUuid = primaryUuid;
      this.command = command;
      this.deadlineMs = deadlineMs;
      this.triedPrimaries = triedPrimaries;
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(BlockRecoveryDispatcher.class);
  /** Recoveries one heartbeat answer carries at most (the rest go with the next heartbeats). */
  static final int MAX_RECOVERIES_PER_HEARTBEAT = 100;

  private final DatanodeRegistry registry;
  private final String blockPoolId;
  private final long timeoutMs;
  private final LongSupplier clockMs;
  private final Map<Long, Attempt> attempts = new LinkedHashMap<>();

  public BlockRecoveryDispatcher(DatanodeRegistry registry, String blockPoolId, long timeoutMs, LongSupplier clockMs) {
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("block recovery timeout must be positive, got " + timeoutMs);
    }
    this.registry = registry;
    this.blockPoolId = blockPoolId;
    this.timeoutMs = timeoutMs;
    this.clockMs = clockMs;
  }

  /** True while this leader has an attempt of {@code term} on the file that has not timed out. */
  public synchronized boolean inFlight(long inodeId, long term) {
    Attempt attempt = attempts.get(inodeId);
    return attempt != null && attempt.term == term && clockMs.getAsLong() < attempt.deadlineMs;
  }

  /**
   * Starts an attempt of {@code task} (a recovery id the leader just issued in {@code term}): its primary is the
   * live datanode holding the block with the latest heartbeat among those not yet tried for this block (all again
   * once every one was), and the recovery covers every live datanode holding the block.
   */
  public void dispatch(BlockRecoveryTask task, long term) throws StoreException {
    Map<String, DatanodeRecord> live = new LinkedHashMap<>();
    for (String storage : task.storageIds()) {
      DatanodeRegistry.Node node = registry.nodeOfStorage(storage);
      if (node != null && registry.isLive(node.record())) {
        live.putIfAbsent(node.record().uuid(), node.record());
      }
    }
    long now = clockMs.getAsLong();
    synchronized (this) {
      Attempt previous = attempts.get(task.inodeId());
      Set<String> tried = previous != null && previous.task.block().blockId() == task.block().blockId()
          ? new HashSet<>(previous.triedPrimaries) : new HashSet<>();
      if (!live.isEmpty() && tried.containsAll(live.keySet())) {
        tried.clear();
      }
      DatanodeRecord primary = live.values().stream().filter(d -> !tried.contains(d.uuid()))
          .max(Comparator.comparingLong(DatanodeRecord::lastHeartbeatMs).thenComparing(DatanodeRecord::uuid))
          .orElse(null);
      RecoveringBlock command = null;
      if (primary == null) {
        LOG.warn("Lease recovery of file {} (inode {}): no live datanode holds block {} (storages {}); trying again "
            + "in {} ms", task.fileName(), task.inodeId(), task.block().blockId(), task.storageIds(), timeoutMs);
      } else {
        tried.add(primary.uuid());
        List<DatanodeInfo> locations = new ArrayList<>();
        live.values().forEach(d -> locations.add(DatanodeRegistry.info(d)));
        ExtendedBlock block = new ExtendedBlock(blockPoolId, task.block().blockId(), task.block().numBytes(),
            task.block().generationStamp());
        DatanodeInfo[] holders = locations.toArray(new DatanodeInfo[0]);
        // A truncate's recovery names the block cut to its new length at the recovery id (HDFS's in-place truncate
        // block: same id); the datanodes cut their replicas to it instead of agreeing on a length of their own.
        command = task.block().truncating()
            ? new RecoveringBlock(block, holders, new Block(task.block().blockId(), task.block().truncateLength(),
                task.recoveryId()))
            : new RecoveringBlock(block, holders, task.recoveryId());
        LOG.info("{} of file {} (inode {}): block {} (stamp {}, {} bytes known{}) to recovery id {}, "
            + "primary datanode {}, replicas on {}", task.block().truncating() ? "Truncate recovery" : "Lease recovery",
            task.fileName(), task.inodeId(), task.block().blockId(), task.block().generationStamp(),
            task.block().numBytes(), task.block().truncating() ? ", cut to " + task.block().truncateLength() : "",
            task.recoveryId(), primary.uuid(), live.keySet());
      }
      attempts.put(task.inodeId(), new Attempt(task, term, primary == null ? null : primary.uuid(), command,
          now + timeoutMs, tried));
    }
  }

  /** The file is closed or no longer under recovery: no attempt of it is to be sent. */
  public synchronized void forget(long inodeId) {
    attempts.remove(inodeId);
  }

  /** Keeps only the attempts of these files (all files under recovery, as the monitor just listed them). */
  public synchronized void retainOnly(Set<Long> inodeIds) {
    attempts.keySet().retainAll(inodeIds);
  }

  /** Attempts held (for tests and logs). */
  public synchronized int size() {
    return attempts.size();
  }

  @Override
  public void commandsFor(String datanodeUuid, long term, List<DatanodeCommand> out) {
    List<RecoveringBlock> due = new ArrayList<>();
    synchronized (this) {
      Iterator<Attempt> it = attempts.values().iterator();
      while (it.hasNext() && due.size() < MAX_RECOVERIES_PER_HEARTBEAT) {
        Attempt attempt = it.next();
        if (!attempt.sent && attempt.term == term && datanodeUuid.equals(attempt.primaryUuid)) {
          attempt.sent = true;
          due.add(attempt.command);
        }
      }
    }
    if (!due.isEmpty()) {
      out.add(new BlockRecoveryCommand(due));
    }
  }
}

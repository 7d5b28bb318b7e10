package io.canopy.namenode.replication;

import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.membership.NotLeaderException;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's search for mis-placed blocks (HDFS's processMisReplicatedBlocks, which it runs at startup and when a
 * single-rack cluster gains a second rack): blocks whose live replicas, two or more, all sit in one zone (or rack,
 * without zones) while the live datanodes span several, as blocks written while a single zone was up do. Each one
 * found is queued ({@link QueueMisplacedOp}); the replication duty then copies it to another zone and removes the
 * excess replica from the crowded one. A block with one live replica is short of replicas, hence queued already.
 *
 * <p>A pass reads every good replica in key order, {@link #replicasPerRun} per run, and starts when a leader term
 * begins and whenever the live datanodes come to span two domains again after spanning one (a zone back); nothing
 * runs while they span one (no block can be mis-placed then: a cluster without zones or racks never scans).
 */
public final class PlacementScan implements LeaderWork {
  private static final Logger LOG = LoggerFactory.getLogger(PlacementScan.class);
  /** Replicas read per page, at most. */
  static final int PAGE_SIZE = 1000;
  /** The smallest replicas-per-run accepted: a page holds whole blocks of any usual replication. */
  public static final int MIN_REPLICAS_PER_RUN = 16;
  /** Files queued (one transaction each) per run, at most: the leader's other duties share its thread. */
  static final int FILES_QUEUED_PER_RUN = 100;
  /** Failed attempts to queue one file before the pass gives up on it. */
  static final int QUEUE_ATTEMPTS = 3;
  /** Blocks checked between two progress lines in the log. */
  static final long PROGRESS_EVERY_BLOCKS = 100_000;

  private final TransactionRunner runner;
  private final ReplicationServices services;
  private final int replicasPerRun;
  private final int pageSize;
  // Only the duty thread touches what follows.
  private long term = -1;
  /** A pass is to start once the live datanodes span two domains. */
  private boolean wanted;
  private boolean scanning;
  /** Where the pass continues (null: from the first replica). */
  private ReplicaKey cursor;
  private long blocksChecked;
  private long blocksQueued;
  private long startedMs;
  /** The file whose queuing failed last, and how many times in a row. */
  private long failedFile = -1;
  private int failures;

  public PlacementScan(TransactionRunner runner, ReplicationServices services, int replicasPerRun) {
    if (replicasPerRun < MIN_REPLICAS_PER_RUN) {
      throw new IllegalArgumentException("placement scan replicas per run must be at least " + MIN_REPLICAS_PER_RUN
          + ", got " + replicasPerRun);
    }
    this.runner = runner;
    this.services = services;
    this.replicasPerRun = replicasPerRun;
    this.pageSize = Math.min(PAGE_SIZE, replicasPerRun);
  }

  @Override
  public String name() {
    return "placement-scan";
  }

  @Override
  public long intervalMs() {
    return services.settings().monitorIntervalMs();
  }

  @Override
  public void run(long term) throws IOException {
    if (term != this.term) {
      this.term = term;
      wanted = true;
      scanning = false;
      cursor = null;
    }
    ReplicaSpread spread = ReplicaSpread.of(services.registry().live().stream().map(DatanodeRegistry.Node::location)
        .toList());
    if (!spread.mayMisplace()) {
      if (scanning) {
        LOG.info("Placement scan stops after {} blocks: the live datanodes span one {} only; it starts again when "
            + "they span two", blocksChecked, spread.zoned() ? "zone" : "rack");
      }
      scanning = false;
      wanted = true;
      return;
    }
    if (wanted && !scanning) {
      wanted = false;
      scanning = true;
      cursor = null;
      blocksChecked = 0;
      blocksQueued = 0;
      startedMs = services.now();
      LOG.info("Placement scan starts (leader term {}): looking for blocks all in one of the {} live {}", term,
          spread.liveDomains(), spread.zoned() ? "zones" : "racks");
    }
    if (scanning) {
      scan(spread);
    }
  }

  /**
   * Reads pages until {@link #replicasPerRun} replicas were read or {@link #FILES_QUEUED_PER_RUN} files queued. A
   * file's blocks are contiguous in key order: its mis-placed ones are queued together when the scan passes its last
   * block of the page. The cursor only passes a file once it was queued (or given up on after
   * {@link #QUEUE_ATTEMPTS} failures), so a run that stops early, or a file that failed, is taken up by the next run.
   */
  private void scan(ReplicaSpread spread) throws IOException {
    int read = 0;
    int queuedFiles = 0;
    while (read < replicasPerRun && queuedFiles < FILES_QUEUED_PER_RUN) {
      List<Replica> page = runner.run(new GoodReplicaPageOp(cursor, pageSize));
      read += Math.max(1, page.size());
      boolean end = page.size() < pageSize;
      List<List<Replica>> blocks = byBlock(page);
      if (!end && blocks.size() > 1) {
        blocks.remove(blocks.size() - 1); // the page may have cut the last block's replicas: read again next page
      }
      // the blocks of one file, from the cursor on; queued (or found fine) before the cursor passes them
      long file = -1;
      Set<Long> misplaced = new TreeSet<>();
      ReplicaKey fileEnd = null;
      long fileBlocks = 0;
      for (List<Replica> replicas : blocks) {
        long inodeId = replicas.get(0).inodeId();
        if (inodeId != file && file >= 0) {
          if (!settle(file, misplaced, fileEnd, fileBlocks, spread)) {
            return; // queuing it failed: the next run starts again at this file
          }
          queuedFiles += misplaced.isEmpty() ? 0 : 1;
          misplaced.clear();
          fileBlocks = 0;
          if (queuedFiles >= FILES_QUEUED_PER_RUN) {
            return;
          }
        }
        file = inodeId;
        fileBlocks++;
        if (NarrowBlocks.narrow(ReplicaHolder.of(replicas, services.registry()), spread)) {
          misplaced.add(replicas.get(0).blockId());
        }
        fileEnd = replicas.get(replicas.size() - 1).key();
      }
      if (file >= 0 && !settle(file, misplaced, fileEnd, fileBlocks, spread)) {
        return;
      }
      queuedFiles += misplaced.isEmpty() ? 0 : 1;
      if (end) {
        LOG.info("Placement scan done in {} ms: {} blocks checked, {} queued as all in one {}",
            services.now() - startedMs, blocksChecked, blocksQueued, spread.zoned() ? "zone" : "rack");
        scanning = false;
        cursor = null;
        return;
      }
    }
  }

  /**
   * Queues a file's mis-placed blocks of the page (none: nothing to do), then moves the cursor past them; false when
   * queuing failed and the file is to be tried again on the next run.
   */
  private boolean settle(long inodeId, Set<Long> misplaced, ReplicaKey fileEnd, long fileBlocks,
      ReplicaSpread spread) throws NotLeaderException {
    if (!misplaced.isEmpty() && !queue(inodeId, misplaced, spread)) {
      return false;
    }
    cursor = fileEnd;
    long before = blocksChecked;
    blocksChecked += fileBlocks;
    if (blocksChecked / PROGRESS_EVERY_BLOCKS > before / PROGRESS_EVERY_BLOCKS) {
      LOG.info("Placement scan: {} blocks checked, {} queued as all in one {}", blocksChecked, blocksQueued,
          spread.zoned() ? "zone" : "rack");
    }
    return true;
  }

  /** Queues the file's mis-placed blocks; false when that failed and is to be tried again on the next run. */
  private boolean queue(long inodeId, Set<Long> blockIds, ReplicaSpread spread) throws NotLeaderException {
    try {
      int queued = runner.run(new QueueMisplacedOp(inodeId, blockIds, term, services, spread));
      blocksQueued += queued;
      failedFile = -1;
      if (queued > 0) {
        LOG.debug("{} block(s) of file inode {} have all their replicas in one {}: queued to be spread", queued,
            inodeId, spread.zoned() ? "zone" : "rack");
      }
      return true;
    } catch (NotLeaderException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      failures = failedFile == inodeId ? failures + 1 : 1;
      failedFile = inodeId;
      if (failures >= QUEUE_ATTEMPTS) {
        LOG.warn("Queuing the mis-placed blocks {} of file inode {} failed {} times: this pass leaves them (the next "
            + "pass, at the next leader term or when a zone comes back, looks again)", blockIds, inodeId, failures, e);
        failedFile = -1;
        return true;
      }
      LOG.warn("Queuing the mis-placed blocks {} of file inode {} failed; tried again on the next run", blockIds,
          inodeId, e);
      return false;
    }
  }

  /** The replicas of a page, grouped by block, in page order. */
  static List<List<Replica>> byBlock(List<Replica> page) {
    List<List<Replica>> blocks = new ArrayList<>();
    for (Replica replica : page) {
      List<Replica> last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
      if (last != null && last.get(0).inodeId() == replica.inodeId() && last.get(0).blockId() == replica.blockId()) {
        last.add(replica);
      } else {
        List<Replica> block = new ArrayList<>();
        block.add(replica);
        blocks.add(block);
      }
    }
    return blocks;
  }
}

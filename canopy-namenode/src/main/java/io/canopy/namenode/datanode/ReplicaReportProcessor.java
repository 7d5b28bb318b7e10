package io.canopy.namenode.datanode;

import io.canopy.metadata.ReplicaBuckets;
import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.blocks.ReplicaArrivals;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaWithBlock;
import io.canopy.namenode.replication.CorruptReplicas;
import io.canopy.namenode.ops.BlockOwnerOp;
import io.canopy.namenode.replication.NarrowBlocks;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs.BlockReportReplica;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns datanode reports into per-file transactions: one transaction per file touched, each locking only that
 * file (so reports never hold several file locks and cannot deadlock with each other). Replicas of blocks no file
 * holds go to {@link UnknownReplicas}.
 */
public final class ReplicaReportProcessor implements AutoCloseable {
  /**
   * How many times the reports of a block that moved to another file (concat) between its lookup and its file's
   * transaction follow it; past that they are dropped unapplied (never invalidated), and the storage's next full
   * report records them.
   */
  static final int MAX_MOVES_FOLLOWED = 3;
  /** Files of reports waiting for a thread; past it the reporting handler applies them itself. */
  private static final int QUEUED_FILES = 1024;
  private static final long IDLE_THREAD_MS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaReportProcessor.class);
  private final TransactionRunner runner;
  private final int minReplication;
  private final LongSupplier clockMs;
  private final UnknownReplicas unknownReplicas;
  private final DatanodeRegistry registry;
  private final NarrowBlocks narrowBlocks;
  private final ReplicaArrivals arrivals;
  /**
   * Runs the per-file transactions of one report side by side: a datanode sends its next incremental report only
   * once this one is answered, so applying its files one after the other (a commit each) made every datanode's
   * reports a queue that complete() waited on. Bounded threads and queue; a full queue runs the file in the
   * reporting handler itself.
   */
  private final ThreadPoolExecutor fileTransactions;

  public ReplicaReportProcessor(TransactionRunner runner, int minReplication, LongSupplier clockMs,
      UnknownReplicas unknownReplicas, DatanodeRegistry registry, ReplicaArrivals arrivals, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("replica report threads must be at least 1, got " + threads);
    }
    this.fileTransactions = new ThreadPoolExecutor(threads, threads, IDLE_THREAD_MS, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(QUEUED_FILES), runnable -> {
          Thread thread = new Thread(runnable, "canopy-replica-reports");
          thread.setDaemon(true);
          return thread;
        }, (task, executor) -> {
          // a full queue: the reporting handler applies the file itself. Once stopped, refuse (a task dropped
          // silently, as CallerRunsPolicy would, leaves its report waiting forever)
          if (executor.isShutdown()) {
            throw new RejectedExecutionException("the namenode is stopping");
          }
          task.run();
        });
    this.fileTransactions.allowCoreThreadTimeOut(true);
    this.runner = runner;
    this.minReplication = minReplication;
    this.clockMs = clockMs;
    this.unknownReplicas = unknownReplicas;
    this.registry = registry;
    this.narrowBlocks = new NarrowBlocks(registry, clockMs);
    this.arrivals = arrivals;
  }

  /**
   * Replicas a client (its read failed a checksum) or a datanode (its block scanner) reports bad: one transaction per
   * file holding them ({@link MarkCorruptReplicasOp}); replicas of blocks no file holds are ignored. Answers how many
   * replicas were marked corrupt.
   */
  public int reportBad(LocatedBlock[] blocks) throws IOException {
    List<MarkCorruptReplicasOp.BadReplica> bad = new ArrayList<>();
    for (LocatedBlock block : blocks) {
      DatanodeInfo[] nodes = block.getLocations();
      String[] storages = block.getStorageIDs();
      for (int i = 0; i < nodes.length; i++) {
        String storage = storages != null && i < storages.length ? storages[i] : null;
        bad.add(new MarkCorruptReplicasOp.BadReplica(block.getBlock().getBlockId(),
            block.getBlock().getGenerationStamp(), nodes[i].getDatanodeUuid(), storage));
      }
    }
    if (bad.isEmpty()) {
      return 0;
    }
    Map<Long, Long> owners = runner.run(new BlockOwnerOp(bad.stream().map(b -> b.blockId()).toList()));
    Map<Long, List<MarkCorruptReplicasOp.BadReplica>> byFile = new TreeMap<>();
    for (MarkCorruptReplicasOp.BadReplica replica : bad) {
      Long owner = owners.get(replica.blockId());
      if (owner == null) {
        LOG.info("Bad replica of block {} on datanode {} ignored: no file holds the block", replica.blockId(),
            replica.datanodeUuid());
      } else {
        byFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(replica);
      }
    }
    int marked = 0;
    for (Map.Entry<Long, List<MarkCorruptReplicasOp.BadReplica>> file : byFile.entrySet()) {
      marked += runner.run(new MarkCorruptReplicasOp(file.getKey(), file.getValue(), registry,
          clockMs.getAsLong()));
    }
    return marked;
  }

  /** Incremental report of one storage. */
  public void apply(String datanodeUuid, String storageId, List<ReportedReplica> reports) throws IOException {
    if (reports.isEmpty()) {
      return;
    }
    Set<Long> blockIds = new HashSet<>();
    reports.forEach(r -> blockIds.add(r.blockId()));
    Map<Long, Long> owners = runner.run(new BlockOwnerOp(blockIds));
    Map<Long, List<ReportedReplica>> byFile = new TreeMap<>();
    List<ReportedReplica> unknown = new ArrayList<>();
    for (ReportedReplica report : reports) {
      Long owner = owners.get(report.blockId());
      if (owner != null) {
        byFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(report);
      } else if (report.kind() == ReportedReplica.Kind.FINALIZED) {
        unknown.add(report);
      }
    }
    applyByFile(datanodeUuid, storageId, byFile, unknown);
  }

  /** What a full report of one storage cost: buckets compared and diffed, files reconciled, replicas unknown. */
  public record FullReportOutcome(int buckets, int bucketsDiffed, int filesChanged, int unknownReplicas) {
  }

  /**
   * Full report of one storage. Its finalized replicas are hashed into buckets ({@link ReplicaBuckets}) and compared
   * with the buckets recorded: only the replicas of buckets that differ are read and diffed, and only the differences
   * cost a transaction (a replica missing, one not recorded, one whose stamp or length no longer matches its block,
   * one recorded corrupt that may have healed). An unchanged storage (a restarted datanode) costs one read of its
   * bucket rows.
   */
  public FullReportOutcome applyFull(String datanodeUuid, String storageId, BlockListAsLongs blocks)
      throws IOException {
    Map<Long, ReportedReplica> reported = new HashMap<>();
    for (BlockReportReplica replica : blocks) {
      if (replica.getState() == ReplicaState.FINALIZED) {
        reported.put(replica.getBlockId(), new ReportedReplica(replica.getBlockId(), replica.getGenerationStamp(),
            replica.getNumBytes(), ReportedReplica.Kind.FINALIZED)); // a block listed twice: its last entry counts
      }
    }
    ReplicaBuckets reportedBuckets = new ReplicaBuckets();
    reported.values().forEach(r -> reportedBuckets.add(r.blockId(), r.generationStamp(), r.numBytes()));
    Map<Integer, ReplicaBuckets.Bucket> recorded = runner.run(new StorageBucketsOp(storageId));
    Map<Integer, ReplicaBuckets.Bucket> reportedByBucket = reportedBuckets.buckets();
    Set<Integer> all = new HashSet<>(recorded.keySet());
    all.addAll(reportedByBucket.keySet());
    Set<Integer> differing = new HashSet<>();
    for (Integer bucket : all) {
      if (!Objects.equals(recorded.get(bucket), reportedByBucket.get(bucket))) {
        differing.add(bucket);
      }
    }
    if (differing.isEmpty()) {
      LOG.debug("Full report of storage {} ({} replicas): its {} buckets match", storageId,
          blocks.getNumberOfBlocks(), all.size());
      return new FullReportOutcome(all.size(), 0, 0, 0);
    }
    reported.keySet().removeIf(blockId -> !differing.contains(ReplicaBuckets.bucketOf(blockId)));
    // most buckets differ (a first report, a wiped disk): one scan of the storage rather than a filter of it
    Collection<Integer> toRead = differing.size() * 2 > all.size() ? null : differing;
    Map<Long, List<ReportedReplica>> byFile = new TreeMap<>();
    for (ReplicaWithBlock stored : runner.run(new StorageReplicasOp(storageId, toRead))) {
      Replica replica = stored.replica();
      if (!differing.contains(ReplicaBuckets.bucketOf(replica.blockId()))) {
        continue;
      }
      ReportedReplica report = reported.remove(replica.blockId());
      if (report == null) {
        byFile.computeIfAbsent(replica.inodeId(), i -> new ArrayList<>()).add(new ReportedReplica(
            replica.blockId(), 0, 0, ReportedReplica.Kind.ABSENT));
      } else if (differs(report, stored)) {
        byFile.computeIfAbsent(replica.inodeId(), i -> new ArrayList<>()).add(report);
      }
    }
    LOG.debug("Full report of storage {} ({} replicas): {} of {} buckets differ, {} file(s) with changes, {} "
        + "replica(s) not recorded", storageId, blocks.getNumberOfBlocks(), differing.size(), all.size(),
        byFile.size(), reported.size());
    List<ReportedReplica> unknown = new ArrayList<>();
    if (!reported.isEmpty()) {
      Map<Long, Long> owners = runner.run(new BlockOwnerOp(reported.keySet()));
      for (ReportedReplica report : reported.values()) {
        Long owner = owners.get(report.blockId());
        if (owner == null) {
          unknown.add(report);
        } else {
          byFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(report);
        }
      }
    }
    int filesChanged = byFile.size();
    applyByFile(datanodeUuid, storageId, byFile, unknown); // adds the replicas found unknown while following moves
    return new FullReportOutcome(all.size(), differing.size(), filesChanged, unknown.size());
  }

  /**
   * Whether a finalized replica reported again needs its file's transaction: its stamp is older than an open block's,
   * its stamp or length is not a closed block's, or it is recorded corrupt for a reason a good report heals.
   */
  private static boolean differs(ReportedReplica report, ReplicaWithBlock stored) {
    if (stored.blockState() == null) {
      return true;
    }
    if (stored.replica().corrupt()) {
      return CorruptReplicas.healedByAGoodReport(stored.replica().corruptReason());
    }
    boolean open = stored.blockState() == BlockState.UNDER_CONSTRUCTION
        || stored.blockState() == BlockState.UNDER_RECOVERY;
    return open ? report.generationStamp() < stored.blockGenerationStamp()
        : report.generationStamp() != stored.blockGenerationStamp() || report.numBytes() != stored.blockNumBytes();
  }

  private void applyByFile(String datanodeUuid, String storageId, Map<Long, List<ReportedReplica>> byFile,
      List<ReportedReplica> unknown) throws IOException {
    List<ReportedReplica> moved = applyEach(datanodeUuid, storageId, byFile);
    for (int follow = 1; !moved.isEmpty(); follow++) {
      if (follow > MAX_MOVES_FOLLOWED) {
        LOG.warn("{} replica report(s) of storage {} left unapplied: their blocks kept moving between files",
            moved.size(), storageId);
        break;
      }
      Map<Long, Long> owners = runner.run(new BlockOwnerOp(moved.stream().map(ReportedReplica::blockId).toList()));
      Map<Long, List<ReportedReplica>> byNewFile = new TreeMap<>();
      for (ReportedReplica report : moved) {
        Long owner = owners.get(report.blockId());
        if (owner != null) {
          byNewFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(report);
        } else if (report.kind() == ReportedReplica.Kind.FINALIZED) {
          unknown.add(report);
        }
      }
      moved = applyEach(datanodeUuid, storageId, byNewFile);
    }
    unknownReplicas.handle(datanodeUuid, unknown);
  }

  /**
   * Applies each file's reports in its own transaction, the files side by side ({@link #fileTransactions}); answers
   * the reports whose blocks are not in the file they were looked up in (moved to another file by concat, or in no
   * file now). Waits for every file's transaction before it answers or fails, so nothing of a report is still
   * running when its datanode hears back.
   */
  private List<ReportedReplica> applyEach(String datanodeUuid, String storageId,
      Map<Long, List<ReportedReplica>> byFile) throws IOException {
    if (byFile.size() == 1) {
      Map.Entry<Long, List<ReportedReplica>> only = byFile.entrySet().iterator().next();
      return applyFile(datanodeUuid, storageId, only.getKey(), only.getValue());
    }
    List<Future<List<ReportedReplica>>> files = new ArrayList<>();
    for (Map.Entry<Long, List<ReportedReplica>> file : byFile.entrySet()) {
      files.add(fileTransactions.submit(() -> applyFile(datanodeUuid, storageId, file.getKey(), file.getValue())));
    }
    List<ReportedReplica> moved = new ArrayList<>();
    Throwable failure = null;
    for (Future<List<ReportedReplica>> file : files) {
      try {
        moved.addAll(file.get());
      } catch (ExecutionException e) {
        failure = withSuppressed(failure, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the namenode stops: the transactions left end with its store
        failure = withSuppressed(failure, new InterruptedIOException("interrupted while applying a report of "
            + "storage " + storageId));
        break;
      }
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure != null) {
      throw (Error) failure;
    }
    return moved;
  }

  /** The transaction applying one storage's reports of one file's blocks, as this processor runs it. */
  public ApplyReplicaReportsOp applyOp(long fileId, String datanodeUuid, String storageId,
      List<ReportedReplica> reports) {
    return new ApplyReplicaReportsOp(fileId, datanodeUuid, storageId, reports, minReplication,
        narrowBlocks, clockMs.getAsLong());
  }

  /**
   * The mis-placement hint the report path consults: its view of the live datanodes lags the registry by up to
   * {@code NarrowBlocks}' refresh, which a test that needs a zone seen live waits out through it.
   */
  public NarrowBlocks narrowBlocks() {
    return narrowBlocks;
  }

  private List<ReportedReplica> applyFile(String datanodeUuid, String storageId, long fileId,
      List<ReportedReplica> reports) throws IOException {
    List<ReportedReplica> moved = runner.run(applyOp(fileId, datanodeUuid, storageId, reports));
    for (ReportedReplica report : reports) {
      if (report.kind() == ReportedReplica.Kind.FINALIZED && !moved.contains(report)) {
        arrivals.finalizedReported(report.blockId());
      }
    }
    arrivals.applied(fileId);
    return moved;
  }

  private static Throwable withSuppressed(Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  /** Stops the report threads (the namenode stops; its RPC servers are stopped first). */
  @Override
  public void close() {
    fileTransactions.shutdownNow();
  }
}

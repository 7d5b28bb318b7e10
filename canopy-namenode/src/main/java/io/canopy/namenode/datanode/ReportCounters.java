package io.canopy.namenode.datanode;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one namenode did with the datanodes' incremental reports and heartbeats (design 018): summed over the
 * namenodes, replicas applied (live or replayed) stay near what the datanodes reported once, whatever their number.
 */
public final class ReportCounters {
  final LongAdder replicasApplied = new LongAdder();
  final LongAdder replicasLeft = new LongAdder();
  final LongAdder replicasReplayed = new LongAdder();
  final LongAdder heartbeatsWritten = new LongAdder();
  final LongAdder heartbeatsLeft = new LongAdder();
  final LongAdder fullReportsApplied = new LongAdder();
  final LongAdder fullReportsLeft = new LongAdder();
  private final LongAdder fullReportBuckets = new LongAdder();
  private final LongAdder fullReportBucketsDiffed = new LongAdder();
  private final LongAdder fullReportFilesChanged = new LongAdder();
  private final LongAdder fullReportUnknownReplicas = new LongAdder();
  private final java.util.concurrent.atomic.AtomicInteger fullReportsInProgress =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger fullReportsInProgressMax =
      new java.util.concurrent.atomic.AtomicInteger();
  private final LongAdder fullReportLeasesRefused = new LongAdder();

  void fullReportLeaseRefused() {
    fullReportLeasesRefused.increment();
  }

  /** Full-report lease requests this namenode refused because as many leases as allowed were held. */
  public long fullReportLeasesRefused() {
    return fullReportLeasesRefused.sum();
  }

  void fullReportStarted() {
    fullReportsInProgressMax.accumulateAndGet(fullReportsInProgress.incrementAndGet(), Math::max);
  }

  void fullReportEnded() {
    fullReportsInProgress.decrementAndGet();
  }

  /**
   * The most full-report calls this namenode has applied at once (leases bound them; a report split per storage is
   * several calls, one after the other).
   */
  public int fullReportsInProgressMax() {
    return fullReportsInProgressMax.get();
  }

  void fullReported(ReplicaReportProcessor.FullReportOutcome storage) {
    fullReportBuckets.add(storage.buckets());
    fullReportBucketsDiffed.add(storage.bucketsDiffed());
    fullReportFilesChanged.add(storage.filesChanged());
    fullReportUnknownReplicas.add(storage.unknownReplicas());
  }

  /** Replica entries of incremental reports this namenode applied as they came. */
  public long replicasApplied() {
    return replicasApplied.sum();
  }

  /** Replica entries it left to the datanode's applier (kept for a handover). */
  public long replicasLeft() {
    return replicasLeft.sum();
  }

  /** Replica entries it applied from what it kept, after becoming a datanode's applier. */
  public long replicasReplayed() {
    return replicasReplayed.sum();
  }

  /** Heartbeats it stored (as the datanode's applier, the leader, or for a datanode it did not know yet). */
  public long heartbeatsWritten() {
    return heartbeatsWritten.sum();
  }

  /** Heartbeats it answered without a database write. */
  public long heartbeatsLeft() {
    return heartbeatsLeft.sum();
  }

  /** Full-report calls (one per report, or per storage when the datanode splits it) this namenode applied. */
  public long fullReportsApplied() {
    return fullReportsApplied.sum();
  }

  /** Full-report calls it answered without applying: neither the datanode's applier nor the leader. */
  public long fullReportsLeft() {
    return fullReportsLeft.sum();
  }

  /** Hash buckets the full reports it applied were compared in (design 018): those of the report and of the records. */
  public long fullReportBuckets() {
    return fullReportBuckets.sum();
  }

  /** Of those, the buckets that differed, whose replicas it read and diffed. */
  public long fullReportBucketsDiffed() {
    return fullReportBucketsDiffed.sum();
  }

  /** Files whose replicas those full reports changed (a transaction each). */
  public long fullReportFilesChanged() {
    return fullReportFilesChanged.sum();
  }

  /** Replicas those full reports listed of blocks no file holds (handed to the leader's unknown-replica handling). */
  public long fullReportUnknownReplicas() {
    return fullReportUnknownReplicas.sum();
  }
}

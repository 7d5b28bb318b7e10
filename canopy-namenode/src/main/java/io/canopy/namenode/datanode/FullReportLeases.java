package io.canopy.namenode.datanode;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * HDFS's full block report leases, for the full reports this namenode applies (design 018): a stock DataNode whose
 * full report is due asks for a lease in its heartbeat and sends the report only once granted one, so granting at
 * most {@link #max()} at a time bounds how many full reports this namenode applies at once (a restart of many
 * datanodes, or a new leader asking every datanode for its report, comes in batches instead of all at once, and
 * client calls keep their handlers). A lease ends when its report's last call is applied, or after
 * {@link #lengthMs()} (a datanode that died holding one). A datanode refused asks again at its next heartbeat.
 *
 * <p>Only a namenode that applies a datanode's full report (its applier, the leader) rations leases; the others
 * answer the report without work and grant any. A report carrying no lease (id 0: a forced report) is applied, as
 * HDFS applies it; so is one whose lease expired: leases pace reports, they never drop one.
 */
public final class FullReportLeases {
  private record Lease(long id, long expiresMs) {
  }

  private final int max;
  private final long lengthMs;
  private final LongSupplier clockMs;
  private final Random random;
  private final Map<String, Lease> byDatanode = new HashMap<>();
  private long refused;

  public FullReportLeases(int max, long lengthMs, LongSupplier clockMs, Random random) {
    if (max < 1 || lengthMs < 1) {
      throw new IllegalArgumentException("full block report leases: at most " + max + " at a time for " + lengthMs
          + " ms; both must be at least 1 (" + DFSConfigKeys.DFS_NAMENODE_MAX_FULL_BLOCK_REPORT_LEASES + ", "
          + DFSConfigKeys.DFS_NAMENODE_FULL_BLOCK_REPORT_LEASE_LENGTH_MS + ")");
    }
    this.max = max;
    this.lengthMs = lengthMs;
    this.clockMs = clockMs;
    this.random = random;
  }

  /** The leases HDFS's keys configure (6 at a time, 5 minutes each, by default). */
  public static FullReportLeases of(Configuration conf, LongSupplier clockMs, Random random) {
    return new FullReportLeases(conf.getInt(DFSConfigKeys.DFS_NAMENODE_MAX_FULL_BLOCK_REPORT_LEASES,
        DFSConfigKeys.DFS_NAMENODE_MAX_FULL_BLOCK_REPORT_LEASES_DEFAULT),
        conf.getLong(DFSConfigKeys.DFS_NAMENODE_FULL_BLOCK_REPORT_LEASE_LENGTH_MS,
            DFSConfigKeys.DFS_NAMENODE_FULL_BLOCK_REPORT_LEASE_LENGTH_MS_DEFAULT), clockMs, random);
  }

  /**
   * A lease for the datanode's next full report: the one it holds already, a new one while fewer than {@link #max()}
   * are held, else 0 (refused: it asks again at its next heartbeat).
   */
  public synchronized long grant(String datanodeUuid) {
    long now = clockMs.getAsLong();
    byDatanode.values().removeIf(lease -> lease.expiresMs() <= now);
    Lease held = byDatanode.get(datanodeUuid);
    if (held != null) {
      return held.id();
    }
    if (byDatanode.size() >= max) {
      refused++;
      return 0;
    }
    long id;
    do {
      id = random.nextLong();
    } while (id == 0);
    byDatanode.put(datanodeUuid, new Lease(id, now + lengthMs));
    return id;
  }

  /** Ends the datanode's lease {@code leaseId} (its report is in); nothing when it holds another or none. */
  public synchronized void release(String datanodeUuid, long leaseId) {
    Lease held = byDatanode.get(datanodeUuid);
    if (held != null && held.id() == leaseId) {
      byDatanode.remove(datanodeUuid);
    }
  }

  /** Leases held now (expired ones not counted). */
  public synchronized int held() {
    long now = clockMs.getAsLong();
    return (int) byDatanode.values().stream().filter(lease -> lease.expiresMs() > now).count();
  }

  /** Lease requests refused because {@link #max()} were held. */
  public synchronized long refused() {
    return refused;
  }

  public int max() {
    return max;
  }

  public long lengthMs() {
    return lengthMs;
  }
}

package io.canopy.metadata.entity;

/**
 * A namenode's membership descriptor (docs/references.md [HopsFS-Thesis] s.4.1.8): its id (from the namenode id
 * sequence, so a restarted namenode joins with a new, larger id), the heartbeat counter it increments every election
 * round, where clients and datanodes reach it, and its location domain (availability zone) id. {@code lastRoundMs} is
 * the wall-clock time of its last round, for operators only: liveness is judged by the counter, never by clocks.
 */
public record NamenodeRecord(
    long id,
    long counter,
    String rpcAddress,
    String httpAddress,
    int locationDomainId,
    long startedAtMs,
    long lastRoundMs) {

  public NamenodeRecord {
    if (id <= 0) {
      throw new IllegalArgumentException("namenode id must be positive, got " + id);
    }
    if (rpcAddress == null || rpcAddress.isEmpty()) {
      throw new IllegalArgumentException("namenode " + id + " has no RPC address");
    }
  }

  public NamenodeRecord withRound(long newCounter, long roundMs) {
    return new NamenodeRecord(id, newCounter, rpcAddress, httpAddress, locationDomainId, startedAtMs, roundMs);
  }
}

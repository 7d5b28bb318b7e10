package io.canopy.namenode.membership;

import io.canopy.metadata.entity.NamenodeRecord;
import java.util.List;
import java.util.function.Supplier;

/**
 * The membership view of a namenode that takes part in no election: itself alone, leader of itself. A stand-in
 * until leader election provides the real view.
 */
public final class StandaloneMembership implements MembershipView {
  private final long id;
  private final Supplier<String> rpcAddress;
  private final long startedAtMs;

  /** @param rpcAddress host:port clients reach this namenode at, read when asked (the port may be bound late) */
  public StandaloneMembership(long id, Supplier<String> rpcAddress, long startedAtMs) {
    this.id = id;
    this.rpcAddress = rpcAddress;
    this.startedAtMs = startedAtMs;
  }

  @Override
  public List<NamenodeRecord> liveNamenodes() {
    return List.of(new NamenodeRecord(id, 0, rpcAddress.get(), "", 0, startedAtMs, startedAtMs));
  }

  @Override
  public long leaderId() {
    return id;
  }

  @Override
  public long selfId() {
    return id;
  }
}

package io.canopy.namenode.replication;

import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.topology.NetworkLocation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Whether a block is mis-placed ({@link ReplicaSpread}) in the cluster as this namenode's datanode view has it, for
 * the report path: a report that brings a block to its replication must not take it off the queue while its replicas
 * all sit in one zone (it stays queued as {@link io.canopy.metadata.entity.ReplicationPriority#MISPLACED} instead).
 * A hint, asked inside a file's locked transaction: it reads only the cached view (the cluster's spread recomputed at
 * most every {@link #SPREAD_REFRESH_MS}), never the database, and answers "not narrow" for a storage the view does
 * not know; the leader's placement scan finds what a hint misses.
 */
public final class NarrowBlocks {
  /** How long the live datanodes' spread is reused. */
  static final long SPREAD_REFRESH_MS = 1000;

  private record Spread(ReplicaSpread spread, long atMs) {
  }

  private final DatanodeRegistry registry;
  private final LongSupplier clockMs;
  private volatile Spread cached;

  public NarrowBlocks(DatanodeRegistry registry, LongSupplier clockMs) {
    this.registry = registry;
    this.clockMs = clockMs;
  }

  /**
   * Whether the good replicas on {@code storages} have two or more live ones, all in one failure domain, while the
   * live datanodes span several.
   */
  public boolean narrow(Collection<String> storages) {
    if (storages.size() < ReplicaSpread.WANTED_DOMAINS) {
      return false;
    }
    ReplicaSpread spread = spread();
    if (!spread.mayMisplace()) {
      return false;
    }
    List<NetworkLocation> live = new ArrayList<>();
    for (String storage : storages) {
      String uuid = registry.cachedHolderOfStorage(storage);
      DatanodeRegistry.Node node = uuid == null ? null : registry.cachedNode(uuid);
      if (node == null) {
        return false; // not in the view yet: no opinion
      }
      if (registry.isLive(node.record()) && !ReplicaHolder.failed(node, storage)) {
        live.add(node.location());
      }
    }
    return live.size() >= ReplicaSpread.WANTED_DOMAINS && !spread.satisfied(live, live.size());
  }

  /** Two or more of {@code holders} live, all in one domain, where {@code spread} wants more: for any replication. */
  static boolean narrow(List<ReplicaHolder> holders, ReplicaSpread spread) {
    List<ReplicaHolder> live = holders.stream().filter(ReplicaHolder::live).toList();
    return live.size() >= ReplicaSpread.WANTED_DOMAINS && !spread.satisfied(ReplicaHolder.locations(live),
        live.size());
  }

  /** The live datanodes' spread in the cached view, recomputed at most every {@link #SPREAD_REFRESH_MS}. */
  private ReplicaSpread spread() {
    long now = clockMs.getAsLong();
    Spread current = cached;
    if (current == null || now - current.atMs() >= SPREAD_REFRESH_MS) {
      current = new Spread(ReplicaSpread.of(registry.cachedLive().stream().map(DatanodeRegistry.Node::location)
          .toList()), now);
      cached = current;
    }
    return current.spread();
  }
}

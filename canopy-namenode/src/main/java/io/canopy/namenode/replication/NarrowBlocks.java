package io.canopy.namenode.replication;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.blocks.DatanodeRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Whether a block is mis-placed ({@link ReplicaSpread}) in the cluster as the registry sees it now, for callers
 * outside the leader's duties: a report that brings a block to its replication must not take it off the queue while
 * its replicas all sit in one zone (it stays queued as {@link io.canopy.metadata.entity.ReplicationPriority#MISPLACED} instead).
 */
public final class NarrowBlocks {
  private final DatanodeRegistry registry;
  /** Computed on first use: most reports never ask. */
  private ReplicaSpread spread;

  public NarrowBlocks(DatanodeRegistry registry) {
    this.registry = registry;
  }

  /**
   * Whether the good replicas of block {@code blockId} of file {@code inodeId} on {@code storages} have two or more
   * live ones, all in one failure domain, while the live cluster spans several.
   */
  public boolean narrow(long inodeId, long blockId, Collection<String> storages) throws StoreException {
    if (storages.size() < ReplicaSpread.WANTED_DOMAINS) {
      return false;
    }
    if (spread == null) {
      spread = ReplicaSpread.of(registry.live().stream().map(DatanodeRegistry.Node::location).toList());
    }
    if (!spread.mayMisplace()) {
      return false;
    }
    List<Replica> replicas = new ArrayList<>();
    storages.forEach(storage -> replicas.add(new Replica(inodeId, blockId, storage)));
    return narrow(ReplicaHolder.of(replicas, registry), spread);
  }

  /** Two or more of {@code holders} live, all in one domain, where {@code spread} wants more: for any replication. */
  static boolean narrow(List<ReplicaHolder> holders, ReplicaSpread spread) {
    List<ReplicaHolder> live = holders.stream().filter(ReplicaHolder::live).toList();
    return live.size() >= ReplicaSpread.WANTED_DOMAINS && !spread.satisfied(ReplicaHolder.locations(live),
        live.size());
  }
}

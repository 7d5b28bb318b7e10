package io.canopy.namenode.blocks;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.StorageRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Chooses pipeline targets: distinct live datanodes with a usable storage, the client's own datanode first when it
 * is one (HDFS's writer-local rule), the rest in random order (seeded: injected).
 */
public final class BlockPlacement {
  /** A chosen datanode and the storage the block goes to. */
  public record Target(DatanodeRegistry.Node node, StorageRecord storage) {
  }

  private final DatanodeRegistry registry;
  private final Random random;

  public BlockPlacement(DatanodeRegistry registry, Random random) {
    this.registry = registry;
    this.random = random;
  }

  /**
   * Up to {@code count} targets, none in {@code excludedUuids}. Fails like HDFS when not even
   * {@code minReplication} datanodes can be used.
   */
  public List<Target> choose(String path, int count, int minReplication, Set<String> excludedUuids,
      String clientAddress) throws IOException {
    List<DatanodeRegistry.Node> live = registry.live();
    List<DatanodeRegistry.Node> candidates = shuffledCandidates(live, excludedUuids);
    for (int i = 0; i < candidates.size(); i++) {
      if (candidates.get(i).record().ipAddress().equals(clientAddress)) {
        Collections.swap(candidates, 0, i);
        break;
      }
    }
    if (candidates.size() < minReplication) {
      throw new IOException("File " + path + " could only be written to " + candidates.size() + " of the "
          + minReplication + " minReplication nodes. There are " + live.size() + " datanode(s) running and "
          + excludedUuids.size() + " node(s) are excluded in this operation.");
    }
    List<Target> targets = new ArrayList<>();
    for (DatanodeRegistry.Node node : candidates.subList(0, Math.min(count, candidates.size()))) {
      targets.add(new Target(node, usableStorage(node)));
    }
    return targets;
  }

  /**
   * Up to {@code count} targets for new replicas of an existing block (re-replication): distinct live datanodes with a
   * usable storage, none in {@code excludedUuids} (those holding or about to hold a replica), in random order. Fewer,
   * or none, when the cluster has no more such datanodes.
   */
  public List<Target> chooseAdditional(int count, Set<String> excludedUuids) throws StoreException {
    List<DatanodeRegistry.Node> candidates = shuffledCandidates(registry.live(), excludedUuids);
    List<Target> targets = new ArrayList<>();
    for (DatanodeRegistry.Node node : candidates.subList(0, Math.min(Math.max(0, count), candidates.size()))) {
      targets.add(new Target(node, usableStorage(node)));
    }
    return targets;
  }

  private List<DatanodeRegistry.Node> shuffledCandidates(List<DatanodeRegistry.Node> live, Set<String> excludedUuids) {
    List<DatanodeRegistry.Node> candidates = new ArrayList<>();
    for (DatanodeRegistry.Node node : live) {
      if (!excludedUuids.contains(node.record().uuid()) && usableStorage(node) != null) {
        candidates.add(node);
      }
    }
    synchronized (random) {
      Collections.shuffle(candidates, random);
    }
    return candidates;
  }

  private static StorageRecord usableStorage(DatanodeRegistry.Node node) {
    StorageRecord best = null;
    for (StorageRecord storage : node.storages()) {
      if (!storage.failed() && (best == null || storage.remaining() > best.remaining())) {
        best = storage;
      }
    }
    return best;
  }
}

package io.canopy.namenode.blocks;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.topology.TopologyResolver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Chooses where a block's replicas go (design 019): distinct live datanodes with a usable storage, spread over zones
 * and racks by their network locations ({@code /zone/rack}, {@link NetworkLocation}), with HDFS's
 * {@code BlockPlacementPolicyDefault} order where zones play the part HDFS gives racks across them:
 * <ol>
 *   <li>the first replica on the writer's own datanode when it is one, else on a datanode of the writer's rack, else
 *       of its zone (the writer placed by the topology mapping from its address, as HDFS does), else anywhere;</li>
 *   <li>the second in another zone than the first, else on another rack, else anywhere;</li>
 *   <li>the third in a zone holding none yet, else on the second's rack (when the first two are on different racks,
 *       as HDFS does to save a cross-rack copy), else on a rack holding none, else anywhere;</li>
 *   <li>every further one in a zone holding the fewest, on a rack holding the fewest.</li>
 * </ol>
 * So with replication 2 or more a block spans two zones whenever the cluster has two, and one replica per zone up to
 * three. Replicas a block already has (a pipeline's, or those re-replication copies from) count as chosen first. Ties
 * are broken at random (seeded: injected). Without zones (every location a plain rack) this is HDFS's rack rule. A
 * datanode with a plain rack in a cluster with zones (one the topology does not place, on {@code /default-rack})
 * never counts as "another zone": it gets replicas only where the zone rules leave a choice of racks, so a forgotten
 * table line does not make it every block's third replica.
 */
public final class BlockPlacement {
  /** A chosen datanode and the storage the block goes to. */
  public record Target(DatanodeRegistry.Node node, StorageRecord storage) {
  }

  private final DatanodeSource registry;
  private final TopologyResolver topology;
  private final Random random;

  public BlockPlacement(DatanodeSource registry, TopologyResolver topology, Random random) {
    this.registry = registry;
    this.topology = topology;
    this.random = random;
  }

  /**
   * Up to {@code count} targets for a new block, none in {@code excludedUuids}. Fails like HDFS when not even
   * {@code minReplication} datanodes can be used.
   */
  public List<Target> choose(String path, int count, int minReplication, Set<String> excludedUuids,
      String clientAddress) throws IOException {
    return choose(path, count, minReplication, excludedUuids, clientAddress, null, List.of());
  }

  /**
   * As {@link #choose(String, int, int, Set, String)} for a writer that declared its location ({@code declared},
   * null when it did not): its first replica goes to that rack, else zone, unless it is on a datanode itself.
   */
  public List<Target> choose(String path, int count, int minReplication, Set<String> excludedUuids,
      String clientAddress, NetworkLocation declared) throws IOException {
    return choose(path, count, minReplication, excludedUuids, clientAddress, declared, List.of());
  }

  /**
   * As {@link #choose(String, int, int, Set, String)} for a block already held by the datanodes {@code holderUuids}
   * (a pipeline growing back after a failure): the new targets complete their spread.
   */
  public List<Target> choose(String path, int count, int minReplication, Set<String> excludedUuids,
      String clientAddress, NetworkLocation declared, List<String> holderUuids) throws IOException {
    List<DatanodeRegistry.Node> live = registry.live();
    List<DatanodeRegistry.Node> candidates = shuffledCandidates(live, excludedUuids, holderUuids);
    if (candidates.size() < minReplication) {
      throw new IOException("File " + path + " could only be written to " + candidates.size() + " of the "
          + minReplication + " minReplication nodes. There are " + live.size() + " datanode(s) running and "
          + excludedUuids.size() + " node(s) are excluded in this operation.");
    }
    return pick(candidates, locationsOf(holderUuids), count, clientAddress, declared);
  }

  /**
   * Up to {@code count} targets for new replicas of an existing block held by {@code holderUuids} (re-replication):
   * distinct live datanodes with a usable storage, none in {@code excludedUuids} (those holding or about to hold a
   * replica), restoring the block's spread over zones and racks. Fewer, or none, when the cluster has no more.
   */
  public List<Target> chooseAdditional(int count, Set<String> excludedUuids, List<String> holderUuids)
      throws StoreException {
    List<DatanodeRegistry.Node> candidates = shuffledCandidates(registry.live(), excludedUuids, holderUuids);
    return pick(candidates, locationsOf(holderUuids), count, null, null);
  }

  private List<Target> pick(List<DatanodeRegistry.Node> candidates, List<NetworkLocation> chosen, int count,
      String clientAddress, NetworkLocation declared) {
    List<Target> targets = new ArrayList<>();
    List<DatanodeRegistry.Node> left = new ArrayList<>(candidates);
    List<NetworkLocation> placed = new ArrayList<>(chosen);
    NetworkLocation writer = !chosen.isEmpty() ? NetworkLocation.UNKNOWN : declared != null ? declared
        : clientAddress == null ? NetworkLocation.UNKNOWN : topology.locate(clientAddress, null);
    // the writer's own datanode: same address, and at the location it declared if it declared one (every process of
    // a local cluster has the same address)
    Predicate<DatanodeRegistry.Node> own = node -> clientAddress != null
        && node.record().ipAddress().equals(clientAddress) && (declared == null || location(node).sameRack(declared));
    while (targets.size() < count && !left.isEmpty()) {
      DatanodeRegistry.Node next = next(left, placed, own, writer);
      left.remove(next);
      placed.add(location(next));
      targets.add(new Target(next, usableStorage(next)));
    }
    return targets;
  }

  /** The next replica's datanode among {@code left} (shuffled), given where the block's replicas are. */
  private static DatanodeRegistry.Node next(List<DatanodeRegistry.Node> left, List<NetworkLocation> placed,
      Predicate<DatanodeRegistry.Node> own, NetworkLocation writer) {
    Set<String> zones = new HashSet<>();
    Set<String> racks = new HashSet<>();
    placed.forEach(l -> {
      zones.add(l.zone());
      racks.add(l.rack());
    });
    switch (placed.size()) {
      case 0 -> {
        boolean placedWriter = !writer.equals(NetworkLocation.UNKNOWN); // an unplaced writer has no rack to prefer
        return first(left, own,
            node -> placedWriter && location(node).sameRack(writer),
            node -> placedWriter && writer.hasZone() && location(node).sameZone(writer));
      }
      case 1 -> {
        NetworkLocation one = placed.get(0);
        return first(left, node -> location(node).hasZone() && !location(node).sameZone(one),
            node -> !location(node).sameRack(one));
      }
      case 2 -> {
        NetworkLocation one = placed.get(0);
        NetworkLocation two = placed.get(1);
        return first(left, node -> location(node).hasZone() && !zones.contains(location(node).zone()),
            node -> !one.sameRack(two) && location(node).sameRack(two),
            node -> !racks.contains(location(node).rack()));
      }
      default -> {
        return leastCrowded(left, placed);
      }
    }
  }

  /** The first node meeting the earliest preference any node meets, else the first node. */
  @SafeVarargs
  private static DatanodeRegistry.Node first(List<DatanodeRegistry.Node> nodes,
      Predicate<DatanodeRegistry.Node>... preferences) {
    for (Predicate<DatanodeRegistry.Node> preference : preferences) {
      for (DatanodeRegistry.Node node : nodes) {
        if (preference.test(node)) {
          return node;
        }
      }
    }
    return nodes.get(0);
  }

  /** The first node of a zone holding the fewest replicas, and within it of a rack holding the fewest. */
  private static DatanodeRegistry.Node leastCrowded(List<DatanodeRegistry.Node> nodes, List<NetworkLocation> placed) {
    DatanodeRegistry.Node best = null;
    long bestScore = Long.MAX_VALUE;
    boolean zoned = placed.stream().anyMatch(NetworkLocation::hasZone);
    for (DatanodeRegistry.Node node : nodes) {
      NetworkLocation at = location(node);
      // a datanode of no zone among zoned replicas is no empty zone: it comes last
      long inZone = zoned && !at.hasZone() ? placed.size() + 1 : placed.stream().filter(at::sameZone).count();
      long inRack = placed.stream().filter(at::sameRack).count();
      long score = inZone * 1_000 + inRack;
      if (score < bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }

  private List<NetworkLocation> locationsOf(List<String> uuids) throws StoreException {
    List<NetworkLocation> locations = new ArrayList<>();
    for (String uuid : uuids) {
      DatanodeRegistry.Node node = uuid == null ? null : registry.node(uuid);
      if (node != null) {
        locations.add(location(node));
      }
    }
    return locations;
  }

  static NetworkLocation location(DatanodeRegistry.Node node) {
    return node.location();
  }

  private List<DatanodeRegistry.Node> shuffledCandidates(List<DatanodeRegistry.Node> live, Set<String> excludedUuids,
      List<String> holderUuids) {
    List<DatanodeRegistry.Node> candidates = new ArrayList<>();
    for (DatanodeRegistry.Node node : live) {
      String uuid = node.record().uuid();
      if (!excludedUuids.contains(uuid) && !holderUuids.contains(uuid) && usableStorage(node) != null) {
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

package io.canopy.namenode.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * Orders each located block's replicas for a reader, nearest first (design 019), as HDFS's {@code sortLocatedBlocks}
 * does by network distance, with zones above racks: replicas in the reader's zone first, within them those on its
 * rack, within those its own datanode (same IP address); replicas at the same distance in random order (seeded:
 * injected), which spreads reads of a hot file over its replicas. A reader the topology does not place gets its own
 * datanode first and the others in random order. The reader's location is the one a Canopy client
 * declares ({@code canopy.client.network-location}), else its IP address's through the topology mapping.
 */
public final class ReaderOrder {
  private final TopologyResolver topology;
  private final Random random;

  public ReaderOrder(TopologyResolver topology, Random random) {
    this.topology = topology;
    this.random = random;
  }

  public TopologyResolver topology() {
    return topology;
  }

  /**
   * Where the reader is: {@code declared} when the client declared a location (a Canopy client's setting), else the
   * mapping's location for {@code clientIp}; {@link NetworkLocation#UNKNOWN} when neither places it.
   */
  public NetworkLocation readerAt(NetworkLocation declared, String clientIp) {
    if (declared != null) {
      return declared;
    }
    return clientIp == null ? NetworkLocation.UNKNOWN : topology.locate(clientIp, null);
  }

  /** A location a client sent, or null when it sent none or not one (the client checks its own setting). */
  public static NetworkLocation declared(String sent) {
    if (sent == null || sent.isEmpty()) {
      return null;
    }
    try {
      return NetworkLocation.parse(sent);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Sorts every block of {@code blocks}, the last one included, in place; returns {@code blocks}. */
  public LocatedBlocks sort(LocatedBlocks blocks, NetworkLocation reader, String clientIp) {
    if (blocks == null) {
      return null;
    }
    for (LocatedBlock block : blocks.getLocatedBlocks()) {
      sort(block, reader, clientIp);
    }
    if (blocks.getLastLocatedBlock() != null) {
      sort(blocks.getLastLocatedBlock(), reader, clientIp);
    }
    return blocks;
  }

  /** Sorts one block's replicas (and its storage ids and types with them) in place. */
  public void sort(LocatedBlock block, NetworkLocation reader, String clientIp) {
    DatanodeInfoWithStorage[] locations = block.getLocations();
    if (locations.length < 2) {
      return;
    }
    // each replica's distance once; ties shuffled (Random is thread-safe), then a stable sort by distance
    List<Placed> order = new ArrayList<>(locations.length);
    for (DatanodeInfoWithStorage node : locations) {
      order.add(new Placed(node, distance(reader, clientIp, node)));
    }
    Collections.shuffle(order, random);
    order.sort(Comparator.comparingInt(Placed::distance));
    for (int i = 0; i < locations.length; i++) {
      locations[i] = order.get(i).node();
    }
    block.updateCachedStorageInfo();
  }

  private record Placed(DatanodeInfoWithStorage node, int distance) {
  }

  /**
   * 0 on the reader's own datanode (same address), 1 elsewhere on its rack, 2 elsewhere in its zone, 3 in another
   * zone. An unplaced reader ({@link NetworkLocation#UNKNOWN}) prefers its own datanode only: nothing is near it, and
   * a datanode the topology left on the default rack is no nearer than any other.
   */
  static int distance(NetworkLocation reader, String clientIp, DatanodeInfoWithStorage node) {
    boolean own = clientIp != null && clientIp.equals(node.getIpAddr());
    if (reader.equals(NetworkLocation.UNKNOWN)) {
      return own ? 0 : 1;
    }
    NetworkLocation at = NetworkLocation.parseOrUnknown(node.getNetworkLocation());
    if (!at.sameZone(reader)) {
      return 3;
    }
    if (!at.sameRack(reader)) {
      return 2;
    }
    return own ? 0 : 1;
  }
}

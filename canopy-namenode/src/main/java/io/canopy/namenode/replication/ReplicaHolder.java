package io.canopy.namenode.replication;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.topology.NetworkLocation;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded replica and the datanode holding it. Live: its datanode is live (heartbeating, not declared dead) and
 * its storage has not failed. {@code node} is null when no registered datanode has the storage.
 */
record ReplicaHolder(Replica replica, DatanodeRegistry.Node node, boolean live) {
  /** The holders of the given replicas, in the order given. */
  static List<ReplicaHolder> of(List<Replica> replicas, DatanodeRegistry registry) throws StoreException {
    List<ReplicaHolder> holders = new ArrayList<>();
    for (Replica replica : replicas) {
      DatanodeRegistry.Node node = registry.nodeOfStorage(replica.storageId());
      boolean live = node != null && registry.isLive(node.record()) && !failed(node, replica.storageId());
      holders.add(new ReplicaHolder(replica, node, live));
    }
    return holders;
  }

  /** The holding datanode's uuid, or null when unknown. */
  String uuid() {
    return node == null ? null : node.record().uuid();
  }

  /** Where the holding datanode is; {@link NetworkLocation#UNKNOWN} when no registered datanode has the storage. */
  NetworkLocation location() {
    return node == null ? NetworkLocation.UNKNOWN : node.location();
  }

  /** The locations of {@code holders}, in their order. */
  static List<NetworkLocation> locations(List<ReplicaHolder> holders) {
    return holders.stream().map(ReplicaHolder::location).toList();
  }

  /** The datanode's remaining space (0 when unknown): excess replicas go first from the fullest datanodes. */
  long remaining() {
    return node == null ? 0 : node.record().remaining();
  }

  /** Whether the datanode reports {@code storageId} failed. */
  static boolean failed(DatanodeRegistry.Node node, String storageId) {
    for (StorageRecord storage : node.storages()) {
      if (storage.storageId().equals(storageId)) {
        return storage.failed();
      }
    }
    return false;
  }
}

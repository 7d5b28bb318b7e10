package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.NamespaceIdentity;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.UnregisteredNodeException;
import org.apache.hadoop.hdfs.server.common.Storage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.NodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may speak for a datanode: every DatanodeProtocol call carrying a {@link DatanodeRegistration} passes here
 * before it touches anything. The registration must be of this namespace (HDFS's {@code verifyRequest}: its
 * registration id), a report must come from a datanode registered and not declared dead since, and a datanode may
 * name only its own storages. The datanode view is a cache reloaded once per heartbeat interval, so anything it does
 * not confirm is read from the database before a refusal (a datanode may have registered through another namenode a
 * moment ago).
 *
 * <p>Refusals: another namespace, or a storage held by another datanode, get HDFS's
 * {@link UnregisteredNodeException} (a stock DataNode then stops serving this namenode: it is not one of ours, or is
 * an impostor); an unknown or dead datanode, or a storage not recorded yet, gets a
 * {@link StaleRegistrationException}, which a stock DataNode retries until a heartbeat has it register again.
 */
public final class RegistrationCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RegistrationCheck.class);

  private final String registrationId;
  private final DatanodeRegistry registry;
  private final TransactionRunner runner;

  public RegistrationCheck(NamespaceIdentity identity, DatanodeRegistry registry, TransactionRunner runner) {
    this.registrationId = Storage.getRegistrationID(new NamespaceInfo(identity.namespaceId(), identity.clusterId(),
        identity.blockPoolId(), identity.creationTime()));
    this.registry = registry;
    this.runner = runner;
  }

  /** registerDatanode: the datanode's storage was formatted for this namespace. */
  public void checkRegistering(DatanodeRegistration registration) throws IOException {
    checkNamespace(registration);
  }

  /**
   * sendHeartbeat: this namespace, and no storage recorded for another datanode (the heartbeat records the storages
   * it names). An unknown or dead datanode passes: its heartbeat is answered "register".
   */
  public void checkHeartbeat(DatanodeRegistration registration, StorageReport[] reports) throws IOException {
    checkNamespace(registration);
    List<String> storageIds = new ArrayList<>();
    for (StorageReport report : reports) {
      storageIds.add(report.getStorage().getStorageID());
    }
    String uuid = registration.getDatanodeUuid();
    DatanodeRegistry.Node cached = registry.cachedNode(uuid);
    if (cached != null && ownsAll(cached, storageIds)) {
      return;
    }
    DatanodeRegistry.Node current = null;
    for (String storageId : storageIds) {
      String holder = registry.cachedHolderOfStorage(storageId);
      if (holder != null && !holder.equals(uuid)) {
        current = current != null ? current : readThrough(uuid);
        if (current == null || !owns(current, storageId)) {
          throw heldByAnother("sendHeartbeat", registration, storageId, holder);
        }
      }
    }
  }

  /**
   * Whether this namenode's datanode view already has {@code datanodeUuid} in service with every storage it reports:
   * then a heartbeat it does not apply (design 018) leaves nothing unrecorded.
   */
  public boolean knownInService(String datanodeUuid, StorageReport[] reports) {
    DatanodeRegistry.Node cached = registry.cachedNode(datanodeUuid);
    if (cached == null || cached.record().isDeclaredDead()) {
      return false;
    }
    for (StorageReport report : reports) {
      if (!owns(cached, report.getStorage().getStorageID())) {
        return false;
      }
    }
    return true;
  }

  /**
   * An incremental, cache or error report: this namespace, a datanode registered and in service, and only storages
   * recorded for it. The view answers when it confirms all that (these come with every block written); so a
   * datanode declared dead through another namenode may still be heard until the view's next reload.
   */
  public void checkReport(String call, DatanodeRegistration registration, Collection<String> storageIds)
      throws IOException {
    check(call, registration, storageIds, false);
  }

  /**
   * A full block report, which can make the namenode forget every replica of a storage: as
   * {@link #checkReport}, always against the database (one read, rare next to the report's own work).
   */
  public void checkFullReport(DatanodeRegistration registration, Collection<String> storageIds) throws IOException {
    check("blockReport", registration, storageIds, true);
  }

  private void check(String call, DatanodeRegistration registration, Collection<String> storageIds,
      boolean fromDatabase) throws IOException {
    checkNamespace(registration);
    String uuid = registration.getDatanodeUuid();
    DatanodeRegistry.Node node = fromDatabase ? null : registry.cachedNode(uuid);
    if (node == null || node.record().isDeclaredDead() || !ownsAll(node, storageIds)) {
      node = readThrough(uuid);
    }
    if (node == null || node.record().isDeclaredDead()) {
      throw new StaleRegistrationException("Refused " + call + " from datanode " + uuid + " ("
          + registration.getXferAddr() + "): it is " + (node == null ? "not registered" : "declared dead")
          + " in this namespace; it must register again (its next heartbeat tells it to) before its reports count");
    }
    for (String storageId : storageIds) {
      if (!owns(node, storageId)) {
        String holder = registry.cachedHolderOfStorage(storageId);
        if (holder != null && !holder.equals(uuid)) {
          throw heldByAnother(call, registration, storageId, holder);
        }
        throw new StaleRegistrationException("Refused " + call + " from datanode " + uuid + ": its storage "
            + storageId + " is not recorded yet; a heartbeat naming the storage records it");
      }
    }
  }

  /** The storages a full block report names. */
  public static List<String> storagesOf(StorageBlockReport[] reports) {
    List<String> ids = new ArrayList<>();
    for (StorageBlockReport report : reports) {
      ids.add(report.getStorage().getStorageID());
    }
    return ids;
  }

  /** The storages an incremental block report names. */
  public static List<String> storagesOf(StorageReceivedDeletedBlocks[] reports) {
    List<String> ids = new ArrayList<>();
    for (StorageReceivedDeletedBlocks report : reports) {
      ids.add(report.getStorage().getStorageID());
    }
    return ids;
  }

  /** HDFS's verifyRequest: a registration id of another namespace (or cluster, or format) is not one of ours. */
  private void checkNamespace(DatanodeRegistration registration) throws UnregisteredNodeException {
    String id = registration.getRegistrationID();
    if (!registrationId.equals(id)) {
      LOG.warn("Registration IDs mismatched: datanode {} ({}) sent {} but this namespace is {}",
          registration.getDatanodeUuid(), registration.getXferAddr(), id, registrationId);
      throw new UnregisteredNodeException(registration);
    }
  }

  /** The datanode as the database has it now (null when unknown); the cache learns it too. */
  private DatanodeRegistry.Node readThrough(String uuid) throws IOException {
    DatanodeRegistry.Node node = runner.run(new DatanodeReadOp(uuid));
    if (node != null) {
      registry.updated(node.record(), node.storages());
    }
    return node;
  }

  private static boolean ownsAll(DatanodeRegistry.Node node, Collection<String> storageIds) {
    return storageIds.stream().allMatch(storageId -> owns(node, storageId));
  }

  private static boolean owns(DatanodeRegistry.Node node, String storageId) {
    for (StorageRecord storage : node.storages()) {
      if (storage.storageId().equals(storageId)) {
        return true;
      }
    }
    return false;
  }

  private static UnregisteredNodeException heldByAnother(String call, DatanodeRegistration registration,
      String storageId, String holder) {
    return new UnregisteredNodeException(new Refusal(registration, "datanode " + registration.getDatanodeUuid()
        + " (" + registration.getXferAddr() + ") sent " + call + " naming storage " + storageId + ", which datanode "
        + holder + " holds; a storage belongs to one datanode"));
  }

  /**
   * What {@link UnregisteredNodeException} prints ("Unregistered server: " and the registration): the refused
   * registration described in words, as its constructors only take a registration.
   */
  private record Refusal(DatanodeRegistration registration, String description) implements NodeRegistration {
    @Override
    public String getAddress() {
      return registration.getAddress();
    }

    @Override
    public String getRegistrationID() {
      return registration.getRegistrationID();
    }

    @Override
    public int getVersion() {
      return registration.getVersion();
    }

    @Override
    public String toString() {
      return description;
    }
  }
}

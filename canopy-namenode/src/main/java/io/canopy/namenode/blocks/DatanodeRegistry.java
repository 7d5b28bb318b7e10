package io.canopy.namenode.blocks;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.topology.NetworkLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This namenode's cache of the datanodes and storages tables. The database is authoritative (any namenode may have
 * received a heartbeat); the cache is reloaded when older than the refresh interval or when a storage is unknown.
 */
public final class DatanodeRegistry implements DatanodeSource {
  /** A datanode and its storages. */
  public record Node(DatanodeRecord record, List<StorageRecord> storages) {
    /** Where the datanode is (design 019); {@link NetworkLocation#UNKNOWN} for a malformed stored location. */
    public NetworkLocation location() {
      return NetworkLocation.parseOrUnknown(record.networkLocation());
    }
  }

  private record View(Map<String, Node> byUuid, Map<String, String> uuidByStorage, long loadedAtMs) {
  }

  private static final Logger LOG = LoggerFactory.getLogger(DatanodeRegistry.class);
  /** The view is reloaded inside an operation only when this many refresh intervals old. */
  private static final int STALE_FACTOR = 5;
  /** An unknown storage or datanode reloads the view at most this often. */
  private static final long MIN_MISS_RELOAD_INTERVAL_MS = 100;

  private final MetadataStore store;
  private final LongSupplier clockMs;
  private final long deadIntervalMs;
  private final long refreshIntervalMs;
  private volatile View view = new View(Map.of(), Map.of(), Long.MIN_VALUE);
  /** Whether, and when, the last reload through {@link #reloadIfOlderThan} failed (guarded by this). */
  private boolean reloadFailed;
  private long reloadFailedAtMs;

  public DatanodeRegistry(MetadataStore store, Configuration conf, LongSupplier clockMs) {
    this.store = store;
    this.clockMs = clockMs;
    long heartbeatMs = NameNodeConfig.heartbeatIntervalMs(conf);
    long recheckMs = NameNodeConfig.heartbeatRecheckIntervalMs(conf);
    // HDFS's rule: dead after twice the recheck interval plus ten heartbeats.
    this.deadIntervalMs = 2 * recheckMs + 10 * heartbeatMs;
    this.refreshIntervalMs = Math.max(100, heartbeatMs);
  }

  /** Reloads the view in the background every refresh interval, so operations rarely reload it themselves. */
  public void refreshIn(ScheduledExecutorService executor) {
    executor.scheduleWithFixedDelay(() -> {
      try {
        reloadIfOlderThan(refreshIntervalMs / 2);
      } catch (StoreException | RuntimeException e) {
        LOG.warn("Reloading the datanode view failed; will retry: {}", e.getMessage());
      }
    }, refreshIntervalMs, refreshIntervalMs, TimeUnit.MILLISECONDS);
  }

  /**
   * Reloads unless a reload finished, or failed, less than {@code maxAgeMs} ago: threads queued on one reload do not
   * repeat it, and with a database that does not answer they keep the view they have rather than each wait out a
   * timeout in turn.
   */
  public synchronized void reloadIfOlderThan(long maxAgeMs) throws StoreException {
    long now = clockMs.getAsLong();
    if (now - view.loadedAtMs < maxAgeMs || reloadFailed && now - reloadFailedAtMs < maxAgeMs) {
      return;
    }
    try {
      reload();
      reloadFailed = false;
    } catch (StoreException | RuntimeException e) {
      reloadFailed = true;
      reloadFailedAtMs = clockMs.getAsLong();
      throw e;
    }
  }

  public synchronized void reload() throws StoreException {
    Map<String, Node> byUuid = new HashMap<>();
    Map<String, String> uuidByStorage = new HashMap<>();
    try (Transaction transaction = store.begin()) {
      Map<String, List<StorageRecord>> storages = new HashMap<>();
      for (StorageRecord storage : transaction.storages().all()) {
        storages.computeIfAbsent(storage.datanodeUuid(), u -> new ArrayList<>()).add(storage);
        uuidByStorage.put(storage.storageId(), storage.datanodeUuid());
      }
      for (DatanodeRecord record : transaction.datanodes().all()) {
        byUuid.put(record.uuid(), new Node(record, List.copyOf(storages.getOrDefault(record.uuid(), List.of()))));
      }
    }
    view = new View(Map.copyOf(byUuid), Map.copyOf(uuidByStorage), clockMs.getAsLong());
  }

  /** The view; reloaded here only when the background refresh has fallen far behind. */
  private View fresh() throws StoreException {
    View current = view;
    if (clockMs.getAsLong() - current.loadedAtMs >= STALE_FACTOR * refreshIntervalMs) {
      reloadIfOlderThan(refreshIntervalMs);
      current = view;
    }
    return current;
  }

  /** Records what this namenode just committed, so its own view does not wait for the next reload. */
  public synchronized void updated(DatanodeRecord record, List<StorageRecord> storages) {
    View current = view;
    Map<String, Node> byUuid = new HashMap<>(current.byUuid);
    Map<String, String> uuidByStorage = new HashMap<>(current.uuidByStorage);
    byUuid.put(record.uuid(), new Node(record, List.copyOf(storages)));
    storages.forEach(s -> uuidByStorage.put(s.storageId(), record.uuid()));
    view = new View(Map.copyOf(byUuid), Map.copyOf(uuidByStorage), current.loadedAtMs);
  }

  /**
   * Live: heartbeating within HDFS's dead interval, and not declared dead by the leader since it last registered (a
   * datanode declared dead counts again only once it registered again and so reports its replicas afresh).
   */
  public boolean isLive(DatanodeRecord record) {
    return !record.isDeclaredDead() && clockMs.getAsLong() - record.lastHeartbeatMs() < deadIntervalMs;
  }

  /** HDFS's dead interval: 2 x dfs.namenode.heartbeat.recheck-interval + 10 x dfs.heartbeat.interval. */
  public long deadIntervalMs() {
    return deadIntervalMs;
  }

  public List<Node> all() throws StoreException {
    List<Node> nodes = new ArrayList<>(fresh().byUuid.values());
    nodes.sort((a, b) -> a.record().uuid().compareTo(b.record().uuid()));
    return nodes;
  }

  @Override
  public List<Node> live() throws StoreException {
    List<Node> live = new ArrayList<>();
    for (Node node : all()) {
      if (isLive(node.record())) {
        live.add(node);
      }
    }
    return live;
  }

  /** The node holding a storage, or null when no datanode ever reported it. */
  public Node nodeOfStorage(String storageId) throws StoreException {
    View current = fresh();
    String uuid = current.uuidByStorage.get(storageId);
    if (uuid == null) {
      reloadIfOlderThan(MIN_MISS_RELOAD_INTERVAL_MS);
      current = view;
      uuid = current.uuidByStorage.get(storageId);
    }
    return uuid == null ? null : current.byUuid.get(uuid);
  }

  @Override
  public Node node(String uuid) throws StoreException {
    Node node = fresh().byUuid.get(uuid);
    if (node == null) {
      reloadIfOlderThan(MIN_MISS_RELOAD_INTERVAL_MS);
      node = view.byUuid.get(uuid);
    }
    return node;
  }

  /** The live nodes of the cached view, in no set order; never reads the database. */
  /** Every datanode of the cached view, live or not; never reads the database. */
  public List<Node> cachedAll() {
    return new ArrayList<>(view.byUuid.values());
  }

  public List<Node> cachedLive() {
    List<Node> live = new ArrayList<>();
    for (Node node : view.byUuid.values()) {
      if (isLive(node.record())) {
        live.add(node);
      }
    }
    return live;
  }

  /** The cached node, or null; never reads the database (a caller that must be sure reads the row itself). */
  public Node cachedNode(String uuid) {
    return view.byUuid.get(uuid);
  }

  /** The datanode the cache records as holding a storage, or null; never reads the database. */
  public String cachedHolderOfStorage(String storageId) {
    return view.uuidByStorage.get(storageId);
  }

  public static StorageType storageType(StorageRecord storage) {
    return StorageType.parseStorageType(storage.storageType());
  }

  public static DatanodeInfo info(DatanodeRecord d) {
    return new DatanodeInfoBuilder()
        .setIpAddr(d.ipAddress())
        .setHostName(d.hostName())
        .setDatanodeUuid(d.uuid())
        .setXferPort(d.transferPort())
        .setInfoPort(d.infoPort())
        .setInfoSecurePort(d.infoSecurePort())
        .setIpcPort(d.ipcPort())
        .setCapacity(d.capacity())
        .setDfsUsed(d.dfsUsed())
        .setRemaining(d.remaining())
        .setBlockPoolUsed(d.blockPoolUsed())
        .setNonDfsUsed(d.nonDfsUsed())
        .setLastUpdate(d.lastHeartbeatMs())
        .setXceiverCount(d.transceiverCount())
        .setNetworkLocation(d.networkLocation())
        .setSoftwareVersion(d.softwareVersion())
        .build();
  }
}

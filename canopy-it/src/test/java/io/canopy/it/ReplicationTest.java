package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.membership.LeaderElection;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.membership.NotLeaderException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The leader's block housekeeping on a real cluster (two namenodes, four stock DataNodes, replication 3): a killed
 * datanode's blocks get their third replica back, the datanode's return leaves excess replicas that are deleted
 * (no block ever without a live replica meanwhile), a block whose replicas are all on dead datanodes stays recorded
 * as missing until one comes back, setReplication copies and deletes replicas, and all of it continues on the new
 * leader when the leader crashes. The tests share the cluster and run in order: each leaves
 * every block at its replication, the last one crashes a namenode.
 */
@Timeout(60)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicationTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final int FILES = 6;
  /** Three blocks per file: two full, one half. */
  private static final int FILE_LENGTH = 2 * BLOCK_SIZE + BLOCK_SIZE / 2;
  private static final long HEARTBEAT_RECHECK_MS = 500;
  /** HDFS's dead interval with these settings: 2 x recheck + 10 x the 1 s heartbeat. */
  private static final long DEAD_INTERVAL_MS = 2 * HEARTBEAT_RECHECK_MS + 10 * 1000;
  /** What re-replicating the few blocks of these tests may take once the datanode is dead. */
  private static final long REPAIR_BOUND_MS = 20_000;
  private static final long POLL_MS = 100;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setLong("dfs.namenode.heartbeat.recheck-interval", HEARTBEAT_RECHECK_MS);
    conf.setLong("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NameNodeConfig.REPLICATION_REPORT_GRACE_MS, 2_000);
    conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 1_000);
  }).nameNodes(2).dataNodes(4).build();
  static final Map<org.apache.hadoop.fs.Path, byte[]> files = new LinkedHashMap<>();
  /** Datanodes the test has shut down: their replicas do not count as live. */
  static final Set<String> down = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void writeFiles() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem(0);
    for (int i = 0; i < FILES; i++) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/replication/data/f" + i);
      byte[] data = TestFiles.randomBytes(FILE_LENGTH, 100 + i);
      TestFiles.write(fs, path, data, BLOCK_SIZE);
      files.put(path, data);
    }
    // A file closes once one replica is confirmed; the others arrive just after (or are copied by the leader).
    awaitReplication(fs, files.keySet(), 3, Duration.ofSeconds(30));
  }

  /**
   * Every test starts with all four datanodes running and every block at its replication, whatever the previous
   * test left behind when it failed.
   */
  @BeforeEach
  void everyDatanodeRunsAndEveryBlockIsReplicated() throws Exception {
    for (int i = 0; i < CLUSTER.cluster().dataNodes().size(); i++) {
      String uuid = CLUSTER.cluster().dataNodes().get(i).getDatanodeUuid();
      if (down.contains(uuid)) {
        CLUSTER.cluster().restartDataNode(i);
        down.remove(uuid);
      }
    }
    // no test crashed it yet
    awaitReplication(CLUSTER.cluster().fileSystem(0), files.keySet(), 3, Duration.ofSeconds(40));
  }

  @Test
  @Order(1)
  void setReplicationUpCopiesAndDownDeletesReplicas() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem(1);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/replication/setrep");
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE + 100, 7);
    TestFiles.write(fs, path, data, BLOCK_SIZE);
    awaitReplication(fs, Set.of(path), 3, Duration.ofSeconds(20));

    assertTrue(fs.setReplication(path, (short) 4));
    assertEquals(4, fs.getFileStatus(path).getReplication());
    long upMs = awaitReplication(fs, Set.of(path), 4, Duration.ofSeconds(20));

    assertTrue(fs.setReplication(path, (short) 2));
    assertEquals(2, fs.getFileStatus(path).getReplication());
    long downMs = awaitReplication(fs, Set.of(path), 2, Duration.ofSeconds(20));
    // The deletions reach the datanodes too, not only the records.
    awaitPhysicalReplicas(fs, Set.of(path), 2, Duration.ofSeconds(20));
    assertArrayEquals(data, TestFiles.read(fs, path));
    assertFalse(fs.setReplication(new org.apache.hadoop.fs.Path("/replication"), (short) 2),
        "setReplication of a directory is false, as in HDFS");
    System.out.printf("setReplication 3 -> 4: %d ms until every block had 4 live replicas; 4 -> 2: %d ms%n", upMs,
        downMs);
    assertTrue(fs.delete(path, false));
  }

  @Test
  @Order(2)
  void aDeadDatanodesBlocksAreCopiedAndItsReturnLeavesExcessThatIsDeleted() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem(1);
    ReplicaSampler sampler = new ReplicaSampler(CLUSTER.cluster().fileSystem(0));
    sampler.start();
    int victimIndex = busiestDataNode(fs);
    DataNode victim = CLUSTER.cluster().dataNodes().get(victimIndex);
    String victimUuid = victim.getDatanodeUuid();
    int victimReplicas = replicasOn(fs, victimUuid);
    assertTrue(victimReplicas > 0, "the victim holds replicas");
    Set<Long> onVictimsDisk = new HashSet<>();
    for (org.apache.hadoop.fs.Path path : files.keySet()) {
      for (LocatedBlock block : blocks(fs, path)) {
        if (storesBlock(victim, block)) {
          onVictimsDisk.add(block.getBlock().getBlockId());
        }
      }
    }
    assertEquals(victimReplicas, onVictimsDisk.size(), "the victim stores what it is said to hold");

    down.add(victimUuid);
    long killedAt = System.nanoTime();
    victim.shutdown();
    awaitReplication(fs, files.keySet(), 3, Duration.ofMillis(DEAD_INTERVAL_MS + REPAIR_BOUND_MS));
    long repairMs = (System.nanoTime() - killedAt) / 1_000_000;
    assertEquals(0, replicasOn(fs, victimUuid), "no block is located on the dead datanode any more");
    assertTrue(repairMs >= DEAD_INTERVAL_MS - 1_000,
        "re-replication waited for the dead interval, as HDFS does: " + repairMs + " ms");
    assertTrue(repairMs <= DEAD_INTERVAL_MS + REPAIR_BOUND_MS, "re-replication took " + repairMs + " ms");
    System.out.printf("Time to full re-replication after a datanode kill: %d ms for %d replicas "
        + "(dead interval %d ms, so %d ms after the datanode counted as dead)%n", repairMs, victimReplicas,
        DEAD_INTERVAL_MS, repairMs - DEAD_INTERVAL_MS);

    // The copies are on the other three datanodes now; the victim's disk still holds its replicas too.
    awaitPhysicalReplicas(fs, files.keySet(), 3, Duration.ofSeconds(5));
    long restartedAt = System.nanoTime();
    DataNode back = CLUSTER.cluster().restartDataNode(victimIndex);
    down.remove(victimUuid);
    // A datanode loads its replicas from disk before it registers: once it is live again, each block it held is on
    // 4 disks until the leader, told by its block report, deletes one replica. 3 on disk then proves the deletion.
    awaitCondition(() -> isLive(fs, victimUuid), Duration.ofSeconds(15), "the datanode to register again");
    assertEquals(victimUuid, back.getDatanodeUuid(), "the same datanode came back");
    awaitPhysicalReplicas(fs, files.keySet(), 3, Duration.ofSeconds(30));
    awaitReplication(fs, files.keySet(), 3, Duration.ofSeconds(10));
    System.out.printf("Excess replicas of the returning datanode deleted from every datanode %d ms after its "
        + "restart%n", (System.nanoTime() - restartedAt) / 1_000_000);

    sampler.stop();
    assertTrue(sampler.samples() > 10, "sampled often enough: " + sampler.samples());
    assertEquals(List.of(), sampler.blocksSeenWithoutLiveReplica(),
        "no block was ever without a live replica");
    for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> file : files.entrySet()) {
      assertArrayEquals(file.getValue(), TestFiles.read(fs, file.getKey()), file.getKey().toString());
    }
  }

  @Test
  @Order(3)
  void aBlockWhoseReplicasAreAllOnDeadDatanodesStaysRecordedAsMissingUntilOneComesBack() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem(0);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/replication/missing");
    try (MetadataStore store = CLUSTER.cluster().openStore()) {
      missingBlockScenario(fs, store, path);
    }
  }

  private void missingBlockScenario(DistributedFileSystem fs, MetadataStore store, org.apache.hadoop.fs.Path path)
      throws Exception {
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE / 2, 9);
    try (var out = fs.create(path, true, 4096, (short) 2, BLOCK_SIZE)) {
      out.write(data);
    }
    awaitReplication(fs, Set.of(path), 2, Duration.ofSeconds(20));
    LocatedBlock block = blocks(fs, path).get(0);
    long inodeId = fs.getClient().getFileInfo(path.toUri().getPath()).getFileId();
    List<Integer> holders = new ArrayList<>();
    for (DatanodeInfo location : block.getLocations()) {
      for (int i = 0; i < CLUSTER.cluster().dataNodes().size(); i++) {
        if (CLUSTER.cluster().dataNodes().get(i).getDatanodeUuid().equals(location.getDatanodeUuid())) {
          holders.add(i);
        }
      }
    }
    assertEquals(2, holders.size());
    List<String> holderUuids = new ArrayList<>();
    for (int index : holders) {
      holderUuids.add(CLUSTER.cluster().dataNodes().get(index).getDatanodeUuid());
      down.add(CLUSTER.cluster().dataNodes().get(index).getDatanodeUuid());
      CLUSTER.cluster().dataNodes().get(index).shutdown();
    }

    // Once both are dead the block has no live replica: it stays, queued as missing, located nowhere.
    long blockId = block.getBlock().getBlockId();
    awaitCondition(() -> queuedPriority(store, inodeId, blockId) == ReplicationPriority.MISSING,
        Duration.ofMillis(DEAD_INTERVAL_MS + 10_000), "the block to be queued as missing");
    assertEquals(0, blocks(fs, path).get(0).getLocations().length);
    assertEquals(data.length, fs.getFileStatus(path).getLen(), "the file and its block are still recorded");

    // One holder back: its replica is copied to a second datanode.
    CLUSTER.cluster().restartDataNode(holders.get(0));
    down.remove(holderUuids.get(0));
    awaitReplication(fs, Set.of(path), 2, Duration.ofSeconds(20));
    assertArrayEquals(data, TestFiles.read(fs, path));
    // The other back too: whatever it brings in excess is deleted, every block of every file is as it should be.
    CLUSTER.cluster().restartDataNode(holders.get(1));
    down.remove(holderUuids.get(1));
    awaitCondition(() -> isLive(fs, holderUuids.get(1)), Duration.ofSeconds(15), "the datanode to register again");
    awaitPhysicalReplicas(fs, Set.of(path), 2, Duration.ofSeconds(20));
    awaitPhysicalReplicas(fs, files.keySet(), 3, Duration.ofSeconds(20));
    awaitReplication(fs, files.keySet(), 3, Duration.ofSeconds(10));
    awaitCondition(() -> queuedPriority(store, inodeId, blockId) == null, Duration.ofSeconds(5),
        "the block to leave the queue");
    assertTrue(fs.delete(path, false));
  }

  @Test
  @Order(4)
  void housekeepingStopsWithACrashedLeaderAndResumesOnTheNewOne() throws Exception {
    int leader = CLUSTER.cluster().nameNode(0).election().isLeader() ? 0 : 1;
    int survivor = 1 - leader;
    LeaderElection oldElection = CLUSTER.cluster().nameNode(leader).election();
    assertTrue(oldElection.isLeader(), "namenode " + leader + " leads");
    long oldTerm = oldElection.leaderTerm().orElseThrow();
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem(survivor);

    CLUSTER.cluster().crashNameNode(leader);
    int victimIndex = busiestDataNode(fs);
    DataNode victim = CLUSTER.cluster().dataNodes().get(victimIndex);
    down.add(victim.getDatanodeUuid());
    long killedAt = System.nanoTime();
    victim.shutdown();

    LeaderElection newElection = CLUSTER.cluster().nameNode(survivor).election();
    awaitCondition(newElection::isLeader, Duration.ofSeconds(15), "namenode " + survivor + " to take over");
    long newTerm = newElection.leaderTerm().orElseThrow();
    assertTrue(newTerm > oldTerm, "a new term: " + oldTerm + " -> " + newTerm);
    try (MetadataStore store = CLUSTER.cluster().openStore();
        Transaction tx = store.begin()) {
      assertThrows(NotLeaderException.class, () -> LeaderFence.check(tx.variables(), oldTerm),
          "the crashed leader's term is fenced off");
    }
    awaitReplication(fs, files.keySet(), 3, Duration.ofMillis(DEAD_INTERVAL_MS + REPAIR_BOUND_MS));
    long repairMs = (System.nanoTime() - killedAt) / 1_000_000;
    System.out.printf("Time to full re-replication after a leader crash and a datanode kill: %d ms from the kill "
        + "(dead interval %d ms; the new leader took over meanwhile)%n", repairMs, DEAD_INTERVAL_MS);
    assertEquals(0, replicasOn(fs, victim.getDatanodeUuid()));
    for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> file : files.entrySet()) {
      assertArrayEquals(file.getValue(), TestFiles.read(fs, file.getKey()), file.getKey().toString());
    }
  }

  // ---- helpers ----

  /** The queue priority of a block, read from the metadata store, or null when it is not queued. */
  private static ReplicationPriority queuedPriority(MetadataStore store, long inodeId, long blockId) {
    try (Transaction tx = store.beginReadOnly()) {
      for (QueuedBlock queued : tx.replicationQueue().ofFile(inodeId)) {
        if (queued.blockId() == blockId) {
          return queued.priority();
        }
      }
      return null;
    } catch (IOException e) {
      throw new IllegalStateException("reading the replication queue", e);
    }
  }

  /** The located blocks of a file, as clients see them (live datanodes only). */
  private static List<LocatedBlock> blocks(DistributedFileSystem fs, org.apache.hadoop.fs.Path path)
      throws IOException {
    return fs.getClient().getLocatedBlocks(path.toUri().getPath(), 0, Long.MAX_VALUE).getLocatedBlocks();
  }

  /** Live locations per block id of the given files, leaving out datanodes the test shut down. */
  private static Map<Long, Set<String>> liveLocations(DistributedFileSystem fs,
      Set<org.apache.hadoop.fs.Path> paths) throws IOException {
    Map<Long, Set<String>> locations = new TreeMap<>();
    for (org.apache.hadoop.fs.Path path : paths) {
      for (LocatedBlock block : blocks(fs, path)) {
        Set<String> uuids = new HashSet<>();
        for (DatanodeInfo location : block.getLocations()) {
          if (!down.contains(location.getDatanodeUuid())) {
            uuids.add(location.getDatanodeUuid());
          }
        }
        locations.put(block.getBlock().getBlockId(), uuids);
      }
    }
    return locations;
  }

  /** Waits until every block of {@code paths} has exactly {@code replicas} live locations; returns the wait in ms. */
  private static long awaitReplication(DistributedFileSystem fs, Set<org.apache.hadoop.fs.Path> paths, int replicas,
      Duration bound) throws Exception {
    long start = System.nanoTime();
    Map<Long, Set<String>> last = Map.of();
    while (System.nanoTime() - start < bound.toNanos()) {
      last = liveLocations(fs, paths);
      if (!last.isEmpty() && last.values().stream().allMatch(l -> l.size() == replicas)) {
        return (System.nanoTime() - start) / 1_000_000;
      }
      Thread.sleep(POLL_MS);
    }
    Map<Long, Integer> off = new TreeMap<>();
    last.forEach((block, l) -> {
      if (l.size() != replicas) {
        off.put(block, l.size());
      }
    });
    return fail("Within " + bound.toMillis() + " ms not every block reached " + replicas
        + " live replicas; block id -> live replicas: " + off);
  }

  /** Replicas on the disks of the running datanodes, per block id of the test files. */
  private static Map<Long, Integer> physicalReplicaCounts(DistributedFileSystem fs,
      Set<org.apache.hadoop.fs.Path> paths) throws IOException {
    Map<Long, Integer> counts = new TreeMap<>();
    for (org.apache.hadoop.fs.Path path : paths) {
      for (LocatedBlock block : blocks(fs, path)) {
        int count = 0;
        for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
          if (!down.contains(dataNode.getDatanodeUuid()) && storesBlock(dataNode, block)) {
            count++;
          }
        }
        counts.put(block.getBlock().getBlockId(), count);
      }
    }
    return counts;
  }

  private static boolean storesBlock(DataNode dataNode, LocatedBlock block) throws IOException {
    if (dataNode.getFSDataset() == null) {
      return false; // still starting
    }
    try {
      return dataNode.getFSDataset().getStoredBlock(block.getBlock().getBlockPoolId(),
          block.getBlock().getBlockId()) != null;
    } catch (ReplicaNotFoundException e) {
      return false;
    }
  }

  private static void awaitPhysicalReplicas(DistributedFileSystem fs, Set<org.apache.hadoop.fs.Path> paths,
      int replicas, Duration bound) throws Exception {
    long deadline = System.nanoTime() + bound.toNanos();
    Map<Long, Integer> counts = Map.of();
    while (System.nanoTime() < deadline) {
      counts = physicalReplicaCounts(fs, paths);
      if (!counts.isEmpty() && counts.values().stream().allMatch(c -> c == replicas)) {
        return;
      }
      Thread.sleep(POLL_MS);
    }
    Map<Long, Integer> located = new TreeMap<>();
    liveLocations(fs, paths).forEach((block, uuids) -> located.put(block, uuids.size()));
    fail("Within " + bound.toMillis() + " ms the datanodes did not hold exactly " + replicas
        + " replicas of every block; block id -> replicas on disk: " + counts + "; as located: " + located);
  }

  private static void awaitCondition(BooleanSupplier condition, Duration bound, String what) throws Exception {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("Waited " + bound.toMillis() + " ms for " + what);
      }
      Thread.sleep(POLL_MS);
    }
  }

  /** Whether the namenode counts datanode {@code uuid} as live. */
  private static boolean isLive(DistributedFileSystem fs, String uuid) {
    try {
      return Arrays.stream(fs.getDataNodeStats(DatanodeReportType.LIVE))
          .anyMatch(d -> d.getDatanodeUuid().equals(uuid));
    } catch (IOException e) {
      return false;
    }
  }

  /** The running datanode holding the most replicas of the test files. */
  private static int busiestDataNode(DistributedFileSystem fs) throws IOException {
    Map<String, Integer> counts = new HashMap<>();
    for (Set<String> uuids : liveLocations(fs, files.keySet()).values()) {
      uuids.forEach(uuid -> counts.merge(uuid, 1, Integer::sum));
    }
    int best = -1;
    for (int i = 0; i < CLUSTER.cluster().dataNodes().size(); i++) {
      String uuid = CLUSTER.cluster().dataNodes().get(i).getDatanodeUuid();
      if (!down.contains(uuid) && (best < 0 || counts.getOrDefault(uuid, 0)
          > counts.getOrDefault(CLUSTER.cluster().dataNodes().get(best).getDatanodeUuid(), 0))) {
        best = i;
      }
    }
    assertNotEquals(-1, best);
    return best;
  }

  /** Blocks of the test files the namenode locates on {@code uuid}. */
  private static int replicasOn(DistributedFileSystem fs, String uuid) throws IOException {
    int count = 0;
    for (org.apache.hadoop.fs.Path path : files.keySet()) {
      for (LocatedBlock block : blocks(fs, path)) {
        for (DatanodeInfo location : block.getLocations()) {
          if (location.getDatanodeUuid().equals(uuid)) {
            count++;
          }
        }
      }
    }
    return count;
  }

  /** Samples, in the background, the live locations of every block and remembers any block seen with none. */
  private static final class ReplicaSampler implements Runnable {
    private final DistributedFileSystem fs;
    private final Thread thread = new Thread(this, "replica-sampler");
    private final List<String> withoutLiveReplica = new ArrayList<>();
    private volatile boolean running = true;
    private volatile int samples;
    private volatile Exception failure;

    ReplicaSampler(DistributedFileSystem fs) {
      this.fs = fs;
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    @Override
    public void run() {
      while (running) {
        try {
          for (Map.Entry<Long, Set<String>> block : liveLocations(fs, files.keySet()).entrySet()) {
            if (block.getValue().isEmpty()) {
              synchronized (withoutLiveReplica) {
                withoutLiveReplica.add("block " + block.getKey() + " at sample " + samples);
              }
            }
          }
          samples++;
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          failure = e;
          return;
        }
      }
    }

    void stop() throws Exception {
      running = false;
      thread.join(5_000);
      if (failure != null) {
        throw failure;
      }
    }

    int samples() {
      return samples;
    }

    List<String> blocksSeenWithoutLiveReplica() {
      synchronized (withoutLiveReplica) {
        return List.copyOf(withoutLiveReplica);
      }
    }
  }
}

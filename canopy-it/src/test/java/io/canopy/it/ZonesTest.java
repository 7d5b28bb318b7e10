package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.canopy.bench.mix.CallWindows;
import io.canopy.bench.mix.MixLoad;
import io.canopy.bench.mix.MixNamespace;
import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.NamespaceBuilder;
import io.canopy.bench.mix.NamespaceShape;
import io.canopy.cli.ClusterConfigs;
import io.canopy.client.ClientConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster over three simulated availability zones, as {@code canopy up --azs 3} lays it (design 019): one namenode
 * and two datanodes per zone, a datanode process per zone. Every block spans the three zones; a client of zone 2 reads
 * from zone 2's datanodes only (their read counters); then every process of the leader's zone is SIGKILLed while the
 * Spotify mix and a workload checking file contents run as clients of that zone: no operation fails, every file reads back byte-identical, and the new leader re-replicates
 * every block onto the two zones left, three replicas spanning both.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ZonesTest {
  private static final int ZONES = 3;
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final int FILES = 12;
  private static final Pattern STATUS = Pattern.compile("(?m)^(\\S+)\\s+running\\s+pid (\\d+) .* zone (\\d+)$");
  private static final Pattern MEMBER = Pattern.compile("(?m)^(\\d+)  127\\.0\\.0\\.1:(\\d+)  .*  leader$");
  private static final Duration REPAIR_BUDGET = Duration.ofSeconds(120);
  private static final Duration METRICS_REFRESH = Duration.ofSeconds(25);
  private static final int MIX_THREADS = 4;
  /** The mix's namespace: 15 directories of 16 files (up to 100 bytes, on datanodes). */
  private static final int MIX_DEPTH = 3;

  @TempDir
  static Path work;

  private static CliRunner canopy() {
    return new CliRunner(work.resolve("cluster"));
  }

  @AfterAll
  static void down() {
    canopy().downIfCreated();
  }

  @Test
  void blocksSpanZonesReadersStayInTheirZoneAndAZoneCanBeLost() throws Exception {
    canopy().succeed("up", "--azs", Integer.toString(ZONES), "--namenodes", "3", "--datanodes", "6",
        "-D", "dfs.namenode.fs-limits.min-block-size=4096", "-D", "dfs.heartbeat.interval=1",
        "-D", "dfs.namenode.heartbeat.recheck-interval=2500", "-D", "dfs.namenode.redundancy.interval.seconds=1",
        "-D", "dfs.namenode.replication.work.multiplier.per.iteration=50",
        "-D", "canopy.namenode.election.round-ms=1000",
        "-D", "ipc.client.connect.max.retries=2", "-D", "ipc.client.connect.retry.interval=100");
    Map<String, long[]> processes = zonedProcesses();
    assertEquals(9, processes.size(), "3 namenodes and 6 datanodes in zones: " + processes);

    // Files of several blocks, written by the stock client (datanode blocks), each block on 3 datanodes.
    Map<org.apache.hadoop.fs.Path, byte[]> before = new TreeMap<>();
    try (FileSystem writer = client(1, true)) {
      for (int i = 0; i < FILES; i++) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/before/f" + i);
        byte[] data = TestFiles.randomBytes(3 * BLOCK_SIZE + 1000 * (i + 1), 2026 + i);
        try (FSDataOutputStream out = writer.create(file, false, 4096, (short) 3, BLOCK_SIZE)) {
          out.write(data);
        }
        before.put(file, data);
      }
    }
    int blocks = sqlCount("SELECT count(*) FROM blocks b JOIN inodes i ON i.id = b.inode_id "
        + "JOIN inodes p ON p.id = i.parent_id WHERE p.name = 'before'");
    assertEquals(FILES * 4, blocks, "each file has 4 blocks");
    assertEquals(0, sqlCount(blocksWithout(3, 3, 0)), "every block has a replica in each of the 3 zones");

    // A client of zone 2 reads every file: every block has a replica in zone 2, and only zone 2's datanodes serve.
    Map<String, Long> readsBefore = blocksRead();
    try (FileSystem reader = client(2, false)) {
      for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> file : before.entrySet()) {
        assertArrayEquals(file.getValue(), TestFiles.read(reader, file.getKey()), file.getKey().toString());
      }
    }
    // metrics2 refreshes the values JMX shows every 10 s: wait for the reads to show
    long zone2Reads = 0;
    long metricsDeadline = System.nanoTime() + METRICS_REFRESH.toNanos();
    while (zone2Reads < blocks) {
      Map<String, Long> readsAfter = blocksRead();
      zone2Reads = 0;
      for (Map.Entry<String, Long> datanode : readsAfter.entrySet()) {
        long reads = datanode.getValue() - readsBefore.getOrDefault(datanode.getKey(), 0L);
        if (datanode.getKey().contains(".az2.")) {
          zone2Reads += reads;
        } else {
          assertEquals(0, reads, datanode.getKey() + " of another zone served a zone-2 reader: " + readsAfter);
        }
      }
      assertTrue(zone2Reads >= blocks || System.nanoTime() < metricsDeadline, "zone 2's datanodes served "
          + zone2Reads + " block reads of " + blocks);
      Thread.sleep(500);
    }

    // Lose the leader's zone, all of it, while the Spotify mix and a workload checking every file's bytes run
    // through the nameservice, as clients of that zone: their namenode dies, they must fail over.
    int lost = zoneOfLeader(processes);
    Configuration workloadConf = clientConf(lost, true);
    URI nameservice = URI.create("hdfs://canopy");
    MixSettings mixSettings = MixSettings.defaults().withBaseDirectory("/mix").withThreads(MIX_THREADS)
        .withShape(NamespaceShape.defaults().withDepth(MIX_DEPTH)).withBuilderThreads(MIX_THREADS).withSeed(17)
        .withLowestSetReplication(2); // a file set to one replica in the lost zone would be lost by choice
    try (FileSystem fs = FileSystem.newInstance(nameservice, workloadConf)) {
      MixNamespace namespace = new NamespaceBuilder(fs, mixSettings.shape(), mixSettings.seed(),
          mixSettings.builderThreads(), new PrintWriter(System.out, true)).buildOrLoad(
              new org.apache.hadoop.fs.Path(mixSettings.baseDirectory()));
      FailoverWorkload workload = new FailoverWorkload(fs, new org.apache.hadoop.fs.Path("/work"), 4, 60);
      CallWindows.WindowResult mix;
      try (MixLoad load = MixLoad.start(nameservice, workloadConf, mixSettings, namespace)) {
        CallWindows.Window window = load.startWindow();
        workload.start();
        workload.awaitOperations(40, 60_000);
        for (long[] process : processes.values()) {
          if (process[1] == lost) {
            ProcessHandle.of(process[0]).ifPresent(ProcessHandle::destroyForcibly);
          }
        }
        workload.join(180_000);
        mix = window.end();
      }
      System.out.printf("zone %d lost: Spotify mix %d operations in %.1f s (%d failed), workload %d operations%n",
          lost, mix.operations(), mix.seconds(), mix.failures(), workload.operations());
      assertEquals(0, mix.failures(), "Spotify-mix operations failed when zone " + lost + " was lost: "
          + mix.firstFailures());
      assertTrue(mix.operations() > 0, "the mix ran: " + mix);
      assertEquals(List.of(), workload.failures(), "no acknowledged operation fails when zone " + lost + " is lost");
      assertEquals(List.of(), workload.verify(fs));
      for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> file : before.entrySet()) {
        assertArrayEquals(file.getValue(), TestFiles.read(fs, file.getKey()), file.getKey().toString());
      }
    }

    // The new leader declares the lost datanodes dead and copies every block onto the zones left.
    long deadline = System.nanoTime() + REPAIR_BUDGET.toNanos();
    int short_ = sqlCount(blocksWithout(3, 2, lost));
    while (short_ > 0 && System.nanoTime() < deadline) {
      Thread.sleep(1_000);
      short_ = sqlCount(blocksWithout(3, 2, lost));
    }
    assertEquals(0, short_, "blocks without 3 replicas over 2 zones outside zone " + lost + " after "
        + REPAIR_BUDGET.toSeconds() + " s");
  }

  /**
   * A count of {@code before}'s blocks with fewer than {@code replicas} replicas, or spanning fewer than {@code zones}
   * zones, on datanodes outside zone {@code lost} (0: none lost).
   */
  private static String blocksWithout(int replicas, int zones, int lost) {
    String onLive = "FROM replicas r JOIN storages s ON s.storage_id = r.storage_id JOIN datanodes d "
        + "ON d.uuid = s.datanode_uuid WHERE r.block_id = b.block_id AND d.network_location NOT LIKE '/az" + lost
        + "/%'";
    return "SELECT count(*) FROM blocks b JOIN inodes i ON i.id = b.inode_id JOIN inodes p ON p.id = i.parent_id "
        + "WHERE p.name = 'before' AND ((SELECT count(DISTINCT d.uuid) " + onLive + ") < " + replicas
        + " OR (SELECT count(DISTINCT split_part(d.network_location, '/', 2)) " + onLive + ") < " + zones + ")";
  }

  private static int sqlCount(String query) {
    String table = canopy().succeed("sql", query).commandOut();
    return Integer.parseInt(table.lines().skip(2).findFirst().orElseThrow().trim());
  }

  /** Every namenode's and datanode's pid and zone, by role name, from {@code canopy status}. */
  private static Map<String, long[]> zonedProcesses() {
    Map<String, long[]> processes = new TreeMap<>();
    Matcher matcher = STATUS.matcher(canopy().succeed("status").commandOut());
    while (matcher.find()) {
      processes.put(matcher.group(1), new long[] {Long.parseLong(matcher.group(2)),
          Long.parseLong(matcher.group(3))});
    }
    return processes;
  }

  /** The zone of the namenode {@code canopy admin namenodes} shows as the leader, by its client port. */
  private static int zoneOfLeader(Map<String, long[]> processes) {
    Matcher leader = MEMBER.matcher(canopy().succeed("admin", "namenodes").commandOut());
    assertTrue(leader.find(), "a leader");
    String status = canopy().succeed("status").commandOut();
    Matcher line = Pattern.compile("(?m)^(namenode-\\d+)\\s+running\\s+pid \\d+\\s+port " + leader.group(2)
        + " .*$").matcher(status);
    assertTrue(line.find(), "the leader's port " + leader.group(2) + " in\n" + status);
    return (int) processes.get(line.group(1))[1];
  }

  /**
   * The client configuration of the cluster for a client of {@code zone}; {@code stock}: Hadoop's own file system,
   * so that files, small or not, go to datanodes.
   */
  private static Configuration clientConf(int zone, boolean stock) {
    Configuration conf = ClusterConfigs.load(canopy().clusterDir().resolve("etc"));
    conf.setInt(ClientConfig.LOCATION_DOMAIN_ID, zone);
    conf.set(ClientConfig.NETWORK_LOCATION, "/az" + zone + "/client");
    if (stock) {
      conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    }
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    return conf;
  }

  private static FileSystem client(int zone, boolean stock) throws IOException {
    return FileSystem.newInstance(URI.create("hdfs://canopy"), clientConf(zone, stock));
  }

  /** Blocks read so far by each datanode (DataNodeActivity's BlocksRead, from each datanode process's /jmx). */
  private static Map<String, Long> blocksRead() throws IOException {
    String table = canopy().succeed("sql", "SELECT host_name, info_port FROM datanodes ORDER BY host_name")
        .commandOut();
    Map<String, Long> reads = new HashMap<>();
    ObjectMapper json = new ObjectMapper();
    for (String row : table.lines().skip(2).toList()) {
      String[] cells = row.split("\\|");
      if (cells.length != 2) {
        continue;
      }
      URL jmx = new URL("http://127.0.0.1:" + cells[1].trim()
          + "/jmx?qry=Hadoop:service=DataNode,name=DataNodeActivity-*");
      try (InputStream in = jmx.openStream()) {
        for (JsonNode bean : json.readTree(in).get("beans")) {
          reads.put(bean.get("name").asText(), bean.get("BlocksRead").asLong());
        }
      }
    }
    assertEquals(6, reads.size(), "six datanodes' activity beans: " + reads.keySet());
    return reads;
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.mix.CallWindows;
import io.canopy.bench.mix.MixLoad;
import io.canopy.bench.mix.MixNamespace;
import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.NamespaceBuilder;
import io.canopy.bench.mix.NamespaceShape;
import io.canopy.cli.ClusterConfigs;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.namenode.NameNodeConfig;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One of three Ignite database nodes SIGKILLed while the Spotify mix and a workload that checks every file it was told
 * was written run through two namenodes (issue 18, design 020): every partition has a copy on each node, so a majority
 * (two of three) still holds every commit. No operation may fail (the namenode retries while the partitions' leaders
 * move), every acknowledged file reads back with its bytes, the namespace's invariants hold, and {@code canopy up}
 * restarts the node, which rejoins.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@Disabled("blocked on Ignite 3.1.0 (issue 18; design 020): passed 2 of 4 runs; one failure is fixed (a delete met "
    + "'Node left the cluster', now a transient error), the other is a surviving node's replica of a partition failing "
    + "with 'Mismatched transaction id' (TxIdMismatchException) after the primary moved, which leaves the partition "
    + "without a majority until the killed node returns: Ignite's IGNITE-27255 and IGNITE-27864, fixed after 3.1.0 "
    + "in no release on Maven Central yet; remove this line to run it")
class IgniteNodeKillTest {
  private static final Pattern DATABASE_NODE = Pattern.compile("(?m)^db-2 +running +pid (\\d+) ");
  private static final int MIX_THREADS = 4;

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
  void aDatabaseNodeKilledUnderTheSpotifyMixLosesNothingAndRejoins() throws Exception {
    // Two namenodes: clients use the nameservice, whose failover proxy retries a RetriableException (what a namenode
    // answers while the database does not), as HDFS clients of an HA cluster do.
    canopy().succeed("up", "--engine", "ignite", "--db-nodes", "3", "--namenodes", "2", "--datanodes", "1",
        "-D", "dfs.replication=1", "-D", "dfs.heartbeat.interval=1", "-D", "dfs.namenode.fs-limits.min-block-size=4096");
    long killed = pidOfDb2();
    Configuration conf = ClusterConfigs.load(canopy().clusterDir().resolve("etc"));
    URI uri = URI.create("hdfs://canopy");
    MixSettings mixSettings = MixSettings.defaults().withBaseDirectory("/mix").withThreads(MIX_THREADS)
        .withShape(NamespaceShape.defaults().withDepth(2)).withBuilderThreads(MIX_THREADS).withSeed(18);
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      MixNamespace namespace = new NamespaceBuilder(fs, mixSettings.shape(), mixSettings.seed(),
          mixSettings.builderThreads(), new PrintWriter(System.out, true)).buildOrLoad(
              new org.apache.hadoop.fs.Path(mixSettings.baseDirectory()));
      FailoverWorkload workload = new FailoverWorkload(fs, new org.apache.hadoop.fs.Path("/work"), 4, 40);
      CallWindows.WindowResult mix;
      long killedAtNanos;
      try (MixLoad load = MixLoad.start(uri, conf, mixSettings, namespace)) {
        CallWindows.Window window = load.startWindow();
        workload.start();
        workload.awaitOperations(40, 120_000);
        int beforeKill = workload.operations();
        ProcessHandle.of(killed).orElseThrow().destroyForcibly();
        killedAtNanos = System.nanoTime();
        workload.join(300_000);
        mix = window.end();
        System.out.printf("db-2 (pid %d) killed after %d workload operations; %d more followed; Spotify mix %d "
            + "operations in %.1f s (%d failed); the workload ended %.1f s after the kill%n", killed, beforeKill,
            workload.operations() - beforeKill, mix.operations(), mix.seconds(), mix.failures(),
            (System.nanoTime() - killedAtNanos) / 1e9);
        assertTrue(workload.operations() > beforeKill, "operations went on after the kill; workload failures: "
            + workload.failures() + "; mix failures: " + mix.firstFailures());
      }
      assertEquals(0, mix.failures(), "Spotify-mix operations failed when db-2 was killed: " + mix.firstFailures());
      assertEquals(List.of(), workload.failures(), "no acknowledged operation fails when db-2 is killed");
      assertEquals(List.of(), workload.verify(fs), "every acknowledged file is there with its bytes");
      assertEquals(List.of(), invariantViolations(), "the namespace's invariants after the kill");

      CliRunner.Run restart = canopy().succeed("up");
      assertTrue(restart.commandOut().contains("db-2 rejoined"), restart.commandOut());
      assertTrue(pidOfDb2() != killed, "a new db-2 process");
      canopy().succeed("dfs", "-mkdir", "/after-rejoin");
      assertEquals(List.of(), workload.verify(fs), "after the node rejoined");
      assertEquals(List.of(), invariantViolations(), "the namespace's invariants after the node rejoined");
    }
    canopy().succeed("down");
  }

  /** {@link NamespaceInvariants} read through a store opened as namenode 1 opens it (the cluster is quiet). */
  private static List<String> invariantViolations() throws Exception {
    Configuration namenode = new Configuration(false);
    namenode.addResource(new org.apache.hadoop.fs.Path(
        canopy().clusterDir().resolve("etc").resolve("namenode-1").resolve("canopy-site.xml").toUri()));
    try (MetadataStore store = MetadataStoreProvider.open(NameNodeConfig.metadataEngine(namenode),
        NameNodeConfig.metadataSettings(namenode))) {
      return NamespaceInvariants.violations(store);
    }
  }

  private static long pidOfDb2() {
    String status = canopy().succeed("status").commandOut();
    Matcher matcher = DATABASE_NODE.matcher(status);
    assertTrue(matcher.find(), status);
    return Long.parseLong(matcher.group(1));
  }
}

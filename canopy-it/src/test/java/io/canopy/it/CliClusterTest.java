package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The canopy command line end to end: up (real child processes: embedded PostgreSQL, a namenode, three Apache
 * DataNodes), put/get/ls through Hadoop's FsShell, sql on the metadata, down, up again and the data is still there.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CliClusterTest {
  private static final int FILE_BYTES = 10 * 1024 * 1024;
  
  @TempDir
  static Path work;

  private static CliRunner canopy() {
    return new CliRunner(work.resolve("cluster"));
  }

  @AfterAll
  static void down() {
    if (Files.exists(canopy().clusterDir())) {
      canopy().run("down");
    }
  }

  /** Every namenode's audit log, one after the other. */
  private static String auditLogs() throws IOException {
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(canopy().clusterDir().resolve("logs"))) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith("-audit.log")).sorted().toList()) {
        all.append(Files.readString(file));
      }
    }
    return all.toString();
  }

  @Test
  void upPutGetSqlDownUpAgain() throws Exception {
    long seed = System.nanoTime();
    System.out.println("seed " + seed);
    byte[] content = new byte[FILE_BYTES];
    new Random(seed).nextBytes(content);
    Path local = work.resolve("random.bin");
    Files.write(local, content);

    String defaultFs = canopy().up("--datanodes", "3", "-D", "dfs.blocksize=1048576", "-D",
        "dfs.namenode.fs-limits.min-block-size=16", "-D", "dfs.heartbeat.interval=1");
    CliRunner.Run status = canopy().run("status");
    assertEquals(0, status.exitCode());
    // The three datanodes run in one process (design 014): status shows one pid for all of them.
    Matcher datanodePids = Pattern.compile("datanode-\\d +running +pid (\\d+)").matcher(status.commandOut());
    Set<String> pids = new HashSet<>();
    int datanodes = 0;
    while (datanodePids.find()) {
      datanodes++;
      pids.add(datanodePids.group(1));
    }
    assertEquals(3, datanodes, status.commandOut());
    assertEquals(1, pids.size(), status.commandOut());

    canopy().succeed("dfs", "-mkdir", "-p", "/it");
    canopy().succeed("dfs", "-put", local.toString(), "/it/random.bin");
    Path copy = work.resolve("copy.bin");
    canopy().succeed("dfs", "-get", "/it/random.bin", copy.toString());
    assertArrayEquals(content, Files.readAllBytes(copy), "bytes read back differ from those written");
    CliRunner.Run listing = canopy().succeed("dfs", "-ls", "-R", "/");
    assertTrue(listing.out().contains("/it/random.bin"), listing.out());
    assertTrue(listing.out().contains(Integer.toString(FILE_BYTES)), listing.out());
    String audit = auditLogs(); // HDFS's audit log, written by the namenode that served each call
    assertTrue(audit.contains("\tcmd=mkdirs\tsrc=/it\tdst=null\tperm=null\tproto=rpc"), audit);
    assertTrue(audit.contains("\tcmd=rename\tsrc=/it/random.bin._COPYING_\tdst=/it/random.bin\t"), audit);
    assertTrue(Pattern.compile("allowed=true\tugi=\\S+ \\(auth:SIMPLE\\)\tip=/127\\.0\\.0\\.1\tcmd=create\t"
        + "src=/it/random.bin._COPYING_\tdst=null\tperm=\\S+:\\S+:rw-r--r--\tproto=rpc").matcher(audit).find(),
        audit);
    CliRunner.Run names = canopy().succeed("sql", "SELECT name FROM inodes");
    assertTrue(names.out().contains("random.bin"), names.out());
    assertTrue(names.out().contains(" it"), names.out());
    String inodesBefore = canopy().succeed("sql", "SELECT id, parent_id, name, size FROM inodes ORDER BY id").out();

    canopy().succeed("down");
    assertEquals(3, canopy().run("status").exitCode(), "nothing may run after down");

    String defaultFsAgain = canopy().up();
    System.out.println("restarted at " + defaultFsAgain + " (first start: " + defaultFs + ")");
    // up returns once the startup safe mode is over: the namespace takes changes at once
    canopy().succeed("dfs", "-mkdir", "/after-restart");
    assertTrue(canopy().succeed("dfsadmin", "-safemode", "get").out().contains("Safe mode is OFF"));
    String report = canopy().succeed("dfsadmin", "-report").out();
    assertTrue(report.contains("Blocks with corrupt replicas: 0") && report.contains("Live datanodes (3)"), report);
    CliRunner.Run fsck = canopy().succeed("hdfs", "fsck", "/it", "-files", "-blocks", "-locations");
    assertTrue(fsck.out().contains("/it/random.bin " + FILE_BYTES + " bytes") && fsck.out().strip()
        .endsWith("The filesystem under path '/it' is HEALTHY"), fsck.out());
    assertTrue(canopy().succeed("hdfs", "dfsadmin", "-report").out().contains("Live datanodes (3)"));
    String metadata = canopy().succeed("fsck").out(); // the database's invariants, on the running cluster
    assertTrue(metadata.contains("Problems:\t0")
        && metadata.strip().endsWith("The metadata in the database is HEALTHY"), metadata);
    assertTrue(canopy().succeed("hdfs", "getconf", "-namenodes").out().strip().length() > 0);
    assertEquals(2, canopy().run("hdfs", "balancer").exitCode(), "an hdfs command canopy does not run");
    canopy().succeed("hdfs", "dfsadmin", "-setQuota", "10", "/it");
    String quota = canopy().succeed("hdfs", "dfs", "-count", "-q", "/it").out().strip();
    assertTrue(quota.startsWith("10 "), quota);
    canopy().succeed("hdfs", "dfsadmin", "-clrQuota", "/it");
    assertTrue(canopy().succeed("hdfs", "dfsadmin", "-safemode", "enter").out().contains("Safe mode is ON"));
    assertTrue(canopy().succeed("hdfs", "dfsadmin", "-safemode", "leave").out().contains("Safe mode is OFF"));
    Matcher http = Pattern.compile("namenode-1 .* http (http://127.0.0.1:\\d+)").matcher(
        canopy().run("status").commandOut());
    assertTrue(http.find(), "status lists the namenode's HTTP server");
    try (var in = new java.net.URL(http.group(1) + "/webhdfs/v1/it?op=LISTSTATUS").openStream()) {
      String webListing = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(webListing.contains("\"pathSuffix\":\"random.bin\""), webListing);
    }
    Path copyAfterRestart = work.resolve("copy-after-restart.bin");
    canopy().succeed("dfs", "-get", "/it/random.bin", copyAfterRestart.toString());
    assertArrayEquals(content, Files.readAllBytes(copyAfterRestart), "bytes differ after a restart");
    assertTrue(canopy().succeed("dfs", "-ls", "-R", "/").out().contains("/it/random.bin"));
    assertEquals(inodesBefore, canopy().succeed("sql", "SELECT id, parent_id, name, size FROM inodes "
        + "WHERE name <> 'after-restart' ORDER BY id").out(), "the namespace changed across the restart");

    canopy().succeed("down");
    assertEquals(3, canopy().run("status").exitCode());
  }
}

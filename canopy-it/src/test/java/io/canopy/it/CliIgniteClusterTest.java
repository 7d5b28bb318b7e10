package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Canopy on Apache Ignite 3 through the command line (issue 18, design 020): {@code canopy up --engine ignite
 * --db-nodes 3} starts three database-node processes (the cluster initialized on the first start), a namenode whose
 * store is a thin client of them, and a DataNode; status shows each database node with its pid; files written through
 * Hadoop's shell read back, before and after {@code down} and {@code up} again.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class CliIgniteClusterTest {
  private static final int FILE_BYTES = 3 * 1024 * 1024 + 100;

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
  void upOnThreeDatabaseNodesPutGetDownUpAgain() throws Exception {
    byte[] large = new byte[FILE_BYTES];
    new Random(18).nextBytes(large);
    Path local = work.resolve("large.bin");
    Files.write(local, large);
    Path small = work.resolve("small.txt");
    Files.writeString(small, "metadata and bytes on three database nodes\n");

    canopy().up("--engine", "ignite", "--db-nodes", "3", "--datanodes", "1", "-D", "dfs.blocksize=1048576",
        "-D", "dfs.replication=1", "-D", "dfs.heartbeat.interval=1");
    CliRunner.Run status = canopy().succeed("status");
    Matcher nodes = Pattern.compile("(?m)^db-(\\d) +running +pid (\\d+) +port (\\d+) network \\d+ rest \\d+$")
        .matcher(status.commandOut());
    Set<String> pids = new HashSet<>();
    int count = 0;
    while (nodes.find()) {
      count++;
      assertEquals(Integer.toString(count), nodes.group(1), status.commandOut());
      pids.add(nodes.group(2));
    }
    assertEquals(3, count, status.commandOut());
    assertEquals(3, pids.size(), "one process per database node:\n" + status.commandOut());
    assertTrue(status.commandOut().contains("metadata on Apache Ignite 3: 3 database nodes"), status.commandOut());

    canopy().succeed("dfs", "-mkdir", "-p", "/on/ignite");
    canopy().succeed("dfs", "-put", local.toString(), "/on/ignite/large.bin");
    canopy().succeed("dfs", "-put", small.toString(), "/on/ignite/small.txt");
    assertBytes(large, "/on/ignite/large.bin", "large.copy");
    assertEquals(Files.readString(small), canopy().succeed("dfs", "-cat", "/on/ignite/small.txt").out().strip()
        + "\n");
    String listing = canopy().succeed("dfs", "-ls", "-R", "/on").out();
    assertTrue(listing.contains(Integer.toString(FILE_BYTES) + " ") && listing.contains("/on/ignite/large.bin")
        && listing.contains("/on/ignite/small.txt"), listing);
    // operators' SQL on Ignite's tables: names as text, sizes as stored; a statement that would write is refused
    String rows = canopy().succeed("sql", "SELECT name, size FROM canopy_inodes WHERE is_dir = false ORDER BY name")
        .out();
    assertTrue(rows.contains("large.bin") && rows.contains(Integer.toString(FILE_BYTES))
        && rows.contains("small.txt"), rows);
    CliRunner.Run write = canopy().run("sql", "DELETE FROM canopy_inodes");
    assertNotEquals(0, write.exitCode());
    assertTrue(write.err().contains("must be a query"), write.err());
    assertTrue(canopy().succeed("dfs", "-ls", "/on/ignite").out().contains("small.txt"), "nothing was deleted");
    String fsck = canopy().succeed("fsck").out(); // the metadata's invariants, read from an Ignite snapshot
    assertTrue(fsck.contains("Total files:\t2 (in the database: 1, open for write: 0)")
        && fsck.strip().endsWith("The metadata in the database is HEALTHY"), fsck);

    canopy().succeed("down");
    assertEquals(3, canopy().run("status").exitCode(), "nothing may run after down");
    canopy().up();
    assertBytes(large, "/on/ignite/large.bin", "large.after-restart");
    canopy().succeed("dfs", "-mkdir", "/after-restart");
    assertTrue(canopy().succeed("dfs", "-ls", "/").out().contains("/after-restart"));
    canopy().succeed("down");
  }

  private static void assertBytes(byte[] expected, String path, String copyName) throws Exception {
    Path copy = work.resolve(copyName);
    canopy().succeed("dfs", "-get", path, copy.toString());
    assertArrayEquals(expected, Files.readAllBytes(copy), path + " reads back");
  }
}

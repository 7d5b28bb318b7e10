package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Hadoop's own FsShell, as users type it, against Canopy. */
@Timeout(300)
class FsShellTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong("dfs.blocksize", 256 * 1024)).dataNodes(3).build();

  /** Runs one shell command; returns its standard output, asserting the exit code. */
  private static String shell(int expectedExit, String... args) throws Exception {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.defaultFS", CLUSTER.cluster().uri());
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    int exit;
    try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      exit = ToolRunner.run(conf, new FsShell(), args);
    } finally {
      System.setOut(originalOut);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, exit, "exit code of " + String.join(" ", args) + "; output: " + output);
    return output;
  }

  @Test
  void usersShellSession() throws Exception {
    Path local = CLUSTER.directory().resolve("local");
    Files.createDirectories(local);
    byte[] big = TestFiles.randomBytes(3 * 1024 * 1024 + 321, 31); // 13 blocks of 256 KB
    Files.write(local.resolve("big.bin"), big);
    Files.write(local.resolve("empty"), new byte[0]);

    shell(0, "-mkdir", "-p", "/shell/in/deep");
    shell(0, "-put", local.resolve("big.bin").toString(), "/shell/in/");
    shell(0, "-put", local.resolve("empty").toString(), "/shell/in/");
    String listing = shell(0, "-ls", "-R", "/shell");
    assertTrue(listing.contains("/shell/in/big.bin"), listing);
    assertTrue(listing.contains("/shell/in/empty"), listing);
    assertTrue(listing.contains("/shell/in/deep"), listing);

    shell(0, "-get", "/shell/in/big.bin", local.resolve("back.bin").toString());
    assertArrayEquals(big, Files.readAllBytes(local.resolve("back.bin")));
    shell(0, "-get", "/shell/in/empty", local.resolve("back-empty").toString());
    assertEquals(0, Files.size(local.resolve("back-empty")));

    shell(0, "-mv", "/shell/in/big.bin", "/shell/in/deep/moved.bin");
    shell(0, "-mv", "/shell/in", "/shell/out");
    shell(1, "-test", "-e", "/shell/in");
    shell(0, "-test", "-f", "/shell/out/deep/moved.bin");
    assertEquals(String.valueOf(big.length), shell(0, "-stat", "%b", "/shell/out/deep/moved.bin").trim());

    shell(0, "-chmod", "-R", "700", "/shell/out");
    assertEquals("rwx------", shell(0, "-stat", "%A", "/shell/out/deep").trim());
    assertEquals("rwx------", shell(0, "-stat", "%A", "/shell/out/deep/moved.bin").trim());
    shell(0, "-chown", "alice:staff", "/shell/out/empty");
    assertEquals("alice staff", shell(0, "-stat", "%u %g", "/shell/out/empty").trim());
    shell(0, "-setrep", "2", "/shell/out/deep/moved.bin");
    assertEquals("2", shell(0, "-stat", "%r", "/shell/out/deep/moved.bin").trim());

    String du = shell(0, "-du", "-s", "/shell/out");
    assertTrue(du.startsWith(String.valueOf(big.length)), du);
    String count = shell(0, "-count", "/shell/out");
    assertTrue(count.trim().matches("2\\s+2\\s+" + big.length + "\\s+/shell/out"), count);

    shell(0, "-rm", "-r", "/shell/out");
    shell(1, "-test", "-e", "/shell/out");
    shell(1, "-ls", "/shell/out");
  }
}

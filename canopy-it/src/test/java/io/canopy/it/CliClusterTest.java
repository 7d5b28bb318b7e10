package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.cli.CanopyCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The canopy command line end to end: up (real child processes: embedded PostgreSQL, a namenode, three Apache
 * DataNodes), put/get/ls through Hadoop's FsShell, sql on the metadata, down, up again and the data is still there.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CliClusterTest {
  private static final int FILE_BYTES = 10 * 1024 * 1024;
  private static final Pattern DEFAULT_FS = Pattern.compile("(?m)^fs\\.defaultFS=(hdfs://127\\.0\\.0\\.1:\\d+)$");

  @TempDir
  static Path work;

  private static Path clusterDir() {
    return work.resolve("cluster");
  }

  /**
   * Exit status and what was printed: {@code commandOut} by the command itself, {@code out} that plus what went to
   * System.out (FsShell's output, and log lines of this JVM), {@code err} likewise.
   */
  record Run(int exitCode, String commandOut, String out, String err) {
  }

  private static synchronized Run canopy(String... args) {
    String[] withDir = new String[args.length + 1];
    withDir[0] = args[0];
    withDir[1] = "--dir=" + clusterDir();
    System.arraycopy(args, 1, withDir, 2, args.length - 1);
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream shellOut = new ByteArrayOutputStream();
    ByteArrayOutputStream shellErr = new ByteArrayOutputStream();
    int exitCode;
    try {
      System.setOut(new PrintStream(shellOut, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(shellErr, true, StandardCharsets.UTF_8));
      exitCode = commandLine.execute(withDir);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    Run run = new Run(exitCode, out.toString(), out + shellOut.toString(StandardCharsets.UTF_8),
        err + shellErr.toString(StandardCharsets.UTF_8));
    System.out.println("$ canopy " + String.join(" ", withDir) + "\n" + run.out() + run.err() + "[exit "
        + exitCode + "]");
    return run;
  }

  private static Run succeed(String... args) {
    Run run = canopy(args);
    assertEquals(0, run.exitCode(), () -> "canopy " + String.join(" ", args) + " failed:\n" + run.out() + run.err());
    return run;
  }

  private static String up(String... extra) {
    String[] args = new String[extra.length + 1];
    args[0] = "up";
    System.arraycopy(extra, 0, args, 1, extra.length);
    long start = System.nanoTime();
    Run run = succeed(args);
    System.out.printf("canopy up became ready in %.1f s%n", (System.nanoTime() - start) / 1e9);
    Matcher matcher = DEFAULT_FS.matcher(run.out());
    assertTrue(matcher.find(), "no fs.defaultFS line in\n" + run.out());
    String lastLine = run.commandOut().strip().lines().reduce((first, second) -> second).orElse("");
    assertTrue(lastLine.startsWith("fs.defaultFS="), "fs.defaultFS must be the last line:\n" + run.out());
    return matcher.group(1);
  }

  @AfterAll
  static void down() {
    if (Files.exists(clusterDir())) {
      canopy("down");
    }
  }

  @Test
  void upPutGetSqlDownUpAgain() throws Exception {
    long seed = System.nanoTime();
    System.out.println("seed " + seed);
    byte[] content = new byte[FILE_BYTES];
    new Random(seed).nextBytes(content);
    Path local = work.resolve("random.bin");
    Files.write(local, content);

    String defaultFs = up("--datanodes", "3", "-D", "dfs.blocksize=1048576", "-D",
        "dfs.namenode.fs-limits.min-block-size=16", "-D", "dfs.heartbeat.interval=1");
    assertEquals(0, canopy("status").exitCode());

    succeed("dfs", "-mkdir", "-p", "/it");
    succeed("dfs", "-put", local.toString(), "/it/random.bin");
    Path copy = work.resolve("copy.bin");
    succeed("dfs", "-get", "/it/random.bin", copy.toString());
    assertArrayEquals(content, Files.readAllBytes(copy), "bytes read back differ from those written");
    Run listing = succeed("dfs", "-ls", "-R", "/");
    assertTrue(listing.out().contains("/it/random.bin"), listing.out());
    assertTrue(listing.out().contains(Integer.toString(FILE_BYTES)), listing.out());
    Run names = succeed("sql", "SELECT name FROM inodes");
    assertTrue(names.out().contains("random.bin"), names.out());
    assertTrue(names.out().contains(" it"), names.out());
    String inodesBefore = succeed("sql", "SELECT id, parent_id, name, size FROM inodes ORDER BY id").out();

    succeed("down");
    assertEquals(3, canopy("status").exitCode(), "nothing may run after down");

    String defaultFsAgain = up();
    System.out.println("restarted at " + defaultFsAgain + " (first start: " + defaultFs + ")");
    Path copyAfterRestart = work.resolve("copy-after-restart.bin");
    succeed("dfs", "-get", "/it/random.bin", copyAfterRestart.toString());
    assertArrayEquals(content, Files.readAllBytes(copyAfterRestart), "bytes differ after a restart");
    assertTrue(succeed("dfs", "-ls", "-R", "/").out().contains("/it/random.bin"));
    assertEquals(inodesBefore, succeed("sql", "SELECT id, parent_id, name, size FROM inodes ORDER BY id").out(),
        "the namespace changed across the restart");

    succeed("down");
    assertEquals(3, canopy("status").exitCode());
  }
}

package io.canopy.bench.nnthroughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.cli.CanopyCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every NNThroughputBenchmark operation the harness measures runs against a real Canopy cluster. */
class NnThroughputCanopyTest {
  private static final Pattern DEFAULT_FS = Pattern.compile("(?m)^fs\\.defaultFS=(hdfs://127\\.0\\.0\\.1:\\d+)\\s*$");

  @TempDir
  Path dir;

  private record Run(int exitCode, String out, String err) {
  }

  private static Run canopy(String... args) {
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  @Test
  @Timeout(180)
  void everyOperationRunsAgainstCanopy() throws Exception {
    Path cluster = dir.resolve("canopy");
    long start = System.nanoTime();
    try {
      Run up = canopy("up", "--dir", cluster.toString(), "--datanodes", "1", "-D",
          "dfs.namenode.fs-limits.min-block-size=16");
      assertEquals(0, up.exitCode(), () -> "canopy up failed:\n" + up.out() + up.err());
      Matcher matcher = DEFAULT_FS.matcher(up.out());
      assertTrue(matcher.find(), () -> "no fs.defaultFS line in\n" + up.out());
      String uri = matcher.group(1);
      System.out.printf("Canopy up at %s after %.1f s%n", uri, (System.nanoTime() - start) / 1e9);
      List<String> failures = new ArrayList<>();
      for (String op : List.of("create", "mkdirs", "open", "fileStatus", "rename", "delete")) {
        long opStart = System.nanoTime();
        try {
          NnThroughputResult result = NnThroughput.run(uri, op, 2, 50, Map.of(), Duration.ofSeconds(60),
              dir.resolve("nntb"));
          System.out.printf("Canopy %s: %s in %.1f s%n", op, result, (System.nanoTime() - opStart) / 1e9);
          assertEquals(50, result.operations());
          assertTrue(result.opsPerSecond() > 0, result.toString());
        } catch (NnThroughputException e) {
          System.out.printf("Canopy %s FAILED after %.1f s: %s%n", op, (System.nanoTime() - opStart) / 1e9,
              e.getMessage());
          failures.add(op + ": " + e.getMessage());
        }
      }
      assertTrue(failures.isEmpty(), () -> "NNThroughputBenchmark failed against Canopy:\n"
          + String.join("\n\n", failures));
    } finally {
      Run down = canopy("down", "--dir", cluster.toString());
      System.out.println("canopy down: exit " + down.exitCode() + "\n" + down.out() + down.err());
    }
  }
}

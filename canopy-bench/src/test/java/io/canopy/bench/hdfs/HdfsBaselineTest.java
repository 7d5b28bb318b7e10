package io.canopy.bench.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.nnthroughput.NnThroughput;
import io.canopy.bench.nnthroughput.NnThroughputException;
import io.canopy.bench.nnthroughput.NnThroughputResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The HDFS baseline starts from Maven artifacts, serves NNThroughputBenchmark, and stops without a trace. */
class HdfsBaselineTest {
  @TempDir
  Path dir;

  @Test
  @Timeout(120)
  void servesNnThroughputBenchmarkAndStopsCleanly() throws Exception {
    long start = System.nanoTime();
    HdfsBaseline baseline = HdfsBaseline.start(dir.resolve("hdfs"), 1,
        Map.of("dfs.namenode.fs-limits.min-block-size", "16"), Duration.ofSeconds(90));
    long pid = baseline.pid();
    try {
      System.out.printf("%s ready after %.1f s%n", baseline, (System.nanoTime() - start) / 1e9);
      assertTrue(baseline.uri().matches("hdfs://127\\.0\\.0\\.1:\\d+"), baseline.uri());
      assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
      String log = Files.readString(baseline.log());
      assertTrue(log.contains("durability: durable"), log);
      assertEquals(1, log.lines().filter(line -> line.startsWith("ready ")).count(), log);
      for (String op : List.of("create", "open")) {
        long opStart = System.nanoTime();
        NnThroughputResult result = NnThroughput.run(baseline.uri(), op, 2, 200, Map.of(), Duration.ofSeconds(60),
            dir.resolve("nntb"));
        System.out.printf("HDFS %s: %s in %.1f s%n", op, result, (System.nanoTime() - opStart) / 1e9);
        assertEquals(op, result.op());
        assertEquals(2, result.threads());
        assertEquals(200, result.operations());
        assertTrue(result.opsPerSecond() > 0, result.toString());
      }
      // A call the namenode rejects (block size below its minimum, set through -D) fails the run at once instead
      // of letting NNThroughputBenchmark spin until the timeout.
      long failStart = System.nanoTime();
      NnThroughputException error = assertThrows(NnThroughputException.class, () -> NnThroughput.run(
          baseline.uri(), "create", 2, 20, Map.of("dfs.blocksize", "8"), Duration.ofSeconds(60), dir.resolve("nntb")));
      double failSeconds = (System.nanoTime() - failStart) / 1e9;
      System.out.printf("rejected create failed after %.1f s%n", failSeconds);
      assertFalse(error.timedOut(), error.getMessage());
      assertTrue(error.getMessage().contains("FAILED") && error.getMessage().contains("min-block-size"),
          error.getMessage());
      assertFalse(ProcessHandle.of(error.pid()).map(ProcessHandle::isAlive).orElse(false));
    } finally {
      baseline.close();
    }
    assertFalse(baseline.isAlive());
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still runs");
    assertTrue(Files.readString(baseline.log()).contains("HDFS baseline stopped"), Files.readString(baseline.log()));
  }
}

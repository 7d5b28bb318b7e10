package io.canopy.bench.nnthroughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.ServerCpu;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NnThroughputParseTest {
  private static final String PREFIX = "2026-01-01 10:00:00,000 INFO  [main] NNThroughputBenchmark: ";

  @Test
  void readsTheFiguresOfTheRequestedOperation() {
    String output = String.join("\n",
        PREFIX + "Starting 200 create(s).",
        PREFIX + "--- open inputs ---",
        PREFIX + "nrFiles = 200",
        PREFIX + "--- open stats  ---",
        PREFIX + "# operations: 200",
        PREFIX + "Elapsed Time: 237",
        PREFIX + " Ops per sec: 843.8818565400844",
        PREFIX + "Average Time: 2");
    NnThroughputResult result = NnThroughput.parse("open", 2, output).orElseThrow();
    assertEquals(new NnThroughputResult("open", 2, 200, 237, 843.8818565400844, 2.0, ServerCpu.Usage.NONE),
        result);
  }

  @Test
  void readsTheServersCpuTimeOfTheTimedPhase() {
    String output = String.join("\n",
        PREFIX + "Starting 200 open(s).",
        TimedPhaseCpu.LINE_PREFIX + "namenode=0.42;PostgreSQL=0.31;datanodes=0.00;database launcher=0.01",
        PREFIX + "--- open stats  ---",
        PREFIX + "# operations: 200",
        PREFIX + "Elapsed Time: 237",
        PREFIX + " Ops per sec: 843.8818565400844",
        PREFIX + "Average Time: 2");
    ServerCpu.Usage cpu = NnThroughput.parse("open", 2, output).orElseThrow().serverCpu();
    assertEquals(List.of("namenode", "PostgreSQL", "datanodes", "database launcher"),
        List.copyOf(cpu.secondsByKind().keySet()));
    assertEquals(0.42, cpu.secondsByKind().get("namenode"), 1e-9);
    assertEquals(3700.0, cpu.totalMicrosPerOperation(200), 1e-6); // 0.74 s over 200 operations
  }

  @Test
  void noFiguresWithoutTheStatsSection() {
    assertTrue(NnThroughput.parse("create", 2, PREFIX + "# operations: 200").isEmpty());
    assertTrue(NnThroughput.parse("create", 2, PREFIX + "--- open stats  ---\n" + PREFIX + "# operations: 1\n"
        + PREFIX + "Elapsed Time: 1\n" + PREFIX + " Ops per sec: 1.0\n" + PREFIX + "Average Time: 1").isEmpty());
  }

  @Test
  void argumentsPerOperation() {
    assertEquals(List.of("-fs", "hdfs://h:1", "-D", "a=b", "-op", "mkdirs", "-threads", "4", "-dirs", "100",
        "-baseDirName", "/x"), NnThroughput.arguments("hdfs://h:1", "mkdirs", 4, 100, Map.of("a", "b"), "/x"));
    assertEquals(List.of("-fs", "hdfs://h:1", "-op", "rename", "-threads", "4", "-files", "100",
        "-baseDirName", "/x"), NnThroughput.arguments("hdfs://h:1", "rename", 4, 100, Map.of(), "/x"));
  }
}

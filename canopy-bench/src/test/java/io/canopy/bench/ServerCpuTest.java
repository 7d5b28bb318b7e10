package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The /proc parsing and the CPU-per-operation arithmetic of {@link ServerCpu}, on fixtures (no timing). */
class ServerCpuTest {
  /** A PostgreSQL backend's stat line as Linux prints it: utime 1234, stime 56, cutime 7, cstime 8. */
  private static final String BACKEND = "4242 (postgres) S 4200 4200 4200 0 -1 4194560 1520 0 0 0 1234 56 7 8 20 0 "
      + "1 0 98765 226000896 3000 18446744073709551615 1 1 0 0 0 0 0 4096 536890880 0 0 0 17 0 0 0 0 0 0";

  @Test
  void parsesTheFieldsOfAStatLine() {
    ServerCpu.ProcessTimes times = ServerCpu.parse(BACKEND);
    assertEquals(4242, times.pid());
    assertEquals(4200, times.parentPid());
    assertEquals(1234 + 56, times.ownTicks());
    assertEquals(7 + 8, times.reapedChildrenTicks());
  }

  @Test
  void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
    String line = "77 (my (odd) name) R 1 77 77 0 -1 0 0 0 0 0 300 200 100 50 20 0 1 0 5 0 0";
    ServerCpu.ProcessTimes times = ServerCpu.parse(line);
    assertEquals(1, times.parentPid());
    assertEquals(500, times.ownTicks());
    assertEquals(150, times.reapedChildrenTicks());
  }

  @Test
  void refusesWhatIsNotAStatLine() {
    assertThrows(IllegalArgumentException.class, () -> ServerCpu.parse("no parentheses here"));
    assertThrows(IllegalArgumentException.class, () -> ServerCpu.parse("1 (short) S 0 1 2"));
  }

  @Test
  void aTreeCountsItsLiveProcessesAndWhatTheyReaped() {
    Map<Long, ServerCpu.ProcessTimes> processes = new HashMap<>();
    put(processes, 100, 1, 50, 20); // postmaster: has reaped children worth 20 ticks
    put(processes, 101, 100, 300, 0); // backend
    put(processes, 102, 100, 200, 5); // backend that reaped a helper
    put(processes, 103, 102, 40, 0); // a grandchild
    put(processes, 500, 1, 9999, 0); // unrelated
    assertEquals(50 + 20 + 300 + 200 + 5 + 40, ServerCpu.treeTicks(processes, List.of(100L)));
    assertEquals(0, ServerCpu.treeTicks(processes, List.of(999L)), "a root that is gone counts nothing");
    assertEquals(40, ServerCpu.treeTicks(processes, List.of(103L, 103L)), "a process counts once");
  }

  @Test
  void aBackendThatExitsBetweenTwoSamplesIsCountedOnceInsideItsParent() {
    Map<Long, ServerCpu.ProcessTimes> before = new HashMap<>();
    put(before, 100, 1, 50, 20);
    put(before, 101, 100, 300, 0);
    Map<Long, ServerCpu.ProcessTimes> after = new HashMap<>();
    // the backend worked 30 more ticks, exited, and the postmaster (10 more ticks itself) reaped it
    put(after, 100, 1, 60, 20 + 330);
    long spent = ServerCpu.treeTicks(after, List.of(100L)) - ServerCpu.treeTicks(before, List.of(100L));
    assertEquals(10 + 30, spent);
  }

  @Test
  void usageIsTheDifferenceOfTwoSamplesInSeconds() {
    ServerCpu.Sample start = new ServerCpu.Sample(Map.of("namenode", 1000L, "PostgreSQL", 500L));
    ServerCpu.Sample end = new ServerCpu.Sample(Map.of("namenode", 1360L, "PostgreSQL", 710L));
    ServerCpu.Usage usage = end.since(start);
    assertEquals(3.6, usage.secondsByKind().get("namenode"), 1e-9);
    assertEquals(2.1, usage.secondsByKind().get("PostgreSQL"), 1e-9);
    // 10,000 operations: 360 µs and 210 µs each, 570 together
    assertEquals(360.0, usage.microsPerOperation("namenode", 10_000), 1e-6);
    assertEquals(570.0, usage.totalMicrosPerOperation(10_000), 1e-6);
    assertEquals(0.0, usage.microsPerOperation("datanodes", 10_000), "a kind not measured spent nothing");
    assertThrows(IllegalArgumentException.class, () -> usage.totalMicrosPerOperation(0));
  }

  @Test
  void perOperationIsTheMedianOverTheRunsOfEachRunsRatio() {
    ServerCpu.Usage fast = new ServerCpu.Usage(Map.of("namenode", 1.0));
    ServerCpu.Usage slow = new ServerCpu.Usage(Map.of("namenode", 3.0));
    ServerCpu.Usage middle = new ServerCpu.Usage(Map.of("namenode", 2.0));
    // 1 s / 10,000 = 100 µs; 3 s / 10,000 = 300 µs; 2 s / 5,000 = 400 µs: the median is 300, not 6 s / 25,000
    ServerCpu.PerOperation perOperation = ServerCpu.PerOperation.of(List.of(fast, slow, middle),
        List.of(10_000L, 10_000L, 5_000L));
    assertEquals(300.0, perOperation.micros("namenode"), 1e-6);
    assertEquals(300.0, perOperation.medianTotalMicros(), 1e-6);
    assertTrue(Double.isNaN(perOperation.micros("PostgreSQL")));
    assertThrows(IllegalArgumentException.class, () -> ServerCpu.PerOperation.of(List.of(fast), List.of()));
  }

  @Test
  void readsThisProcessFromProc() throws Exception {
    long self = ProcessHandle.current().pid();
    ServerCpu.ProcessTimes times = ServerCpu.readProc().get(self);
    assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), times.parentPid());
    assertTrue(times.ownTicks() >= 0);
    ServerCpu.Sample sample = ServerCpu.sample(Map.of("test JVM", List.of(self)));
    assertTrue(sample.ticksByKind().get("test JVM") >= times.ownTicks(), "CPU time never decreases");
  }

  @Test
  void aTreeReadFromProcHoldsTheChildrenOfItsRoot() throws Exception {
    // a single-threaded root that forks from its main thread, as PostgreSQL's postmaster forks its backends
    Process root = new ProcessBuilder("sh", "-c", "sleep 30 & echo $!; wait").start();
    try {
      long child = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(root.getInputStream()))
          .readLine().trim());
      Map<Long, ServerCpu.ProcessTimes> tree = ServerCpu.readTrees(List.of(root.pid()));
      assertEquals(java.util.Set.of(root.pid(), child), tree.keySet());
      assertEquals(root.pid(), tree.get(child).parentPid());
    } finally {
      root.descendants().forEach(ProcessHandle::destroyForcibly);
      root.destroyForcibly().waitFor();
    }
  }

  private static void put(Map<Long, ServerCpu.ProcessTimes> processes, long pid, long parent, long own,
      long reaped) {
    processes.put(pid, new ServerCpu.ProcessTimes(pid, parent, own, reaped));
  }
}

package io.canopy.bench.nnthroughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.ServerCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimedPhaseCpuTest {
  @Test
  void rootsSurviveTheTripThroughASystemProperty() {
    Map<String, List<Long>> roots = new LinkedHashMap<>();
    roots.put("namenode", List.of(11L));
    roots.put("PostgreSQL", List.of(22L));
    roots.put("datanodes", List.of(33L, 34L, 35L));
    roots.put("namenode + datanodes (one JVM)", List.of());
    String value = TimedPhaseCpu.format(roots);
    assertEquals("namenode=11;PostgreSQL=22;datanodes=33,34,35;namenode + datanodes (one JVM)=", value);
    assertEquals(roots, TimedPhaseCpu.parseRoots(value));
    assertThrows(IllegalArgumentException.class, () -> TimedPhaseCpu.format(Map.of("a;b", List.of(1L))));
  }

  @Test
  void usageSurvivesTheTripThroughTheLog() {
    Map<String, Double> seconds = new LinkedHashMap<>();
    seconds.put("namenode", 1.25);
    seconds.put("PostgreSQL", 0.5);
    String line = TimedPhaseCpu.formatUsage(new ServerCpu.Usage(seconds));
    assertEquals(TimedPhaseCpu.LINE_PREFIX + "namenode=1.25;PostgreSQL=0.50", line);
    assertEquals(seconds, TimedPhaseCpu.parseUsage("some output\n" + line + "\nmore output").orElseThrow()
        .secondsByKind());
    assertTrue(TimedPhaseCpu.parseUsage("no such line").isEmpty());
  }

  @Test
  void onlyTheStartLineOfItsOwnOperationStartsTheTimedPhase() {
    TimedPhaseCpu open = new TimedPhaseCpu("open", Map.of(), System.out);
    assertTrue(open.startsTimedPhase("Starting 500 open(s)."));
    // open first creates its files with a create benchmark of its own, which is not timed
    assertFalse(open.startsTimedPhase("Starting 500 create(s)."));
    assertFalse(open.startsTimedPhase("--- open stats  ---"));
    assertTrue(new TimedPhaseCpu("fileStatus", Map.of(), System.out).startsTimedPhase(
        "Starting 5000 fileStatus(s)."));
  }
}

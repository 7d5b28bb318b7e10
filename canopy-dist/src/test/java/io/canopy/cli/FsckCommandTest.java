package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.check.MetadataCheckReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class FsckCommandTest {
  private static final MetadataCheckReport.Counts COUNTS = new MetadataCheckReport.Counts(3, 5, 0, 2, 1, 4, 12, 1, 0,
      0);

  private static String print(MetadataCheckReport report) {
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      FsckCommand.print(out, report, 42);
    }
    return text.toString();
  }

  @Test
  void problemsComeFirstOneALineAndMakeItCorruptWhileWarningsDoNot() {
    String corrupt = print(new MetadataCheckReport(COUNTS, List.of("orphan: x", "cycle: y"), 3,
        List.of("stale lease"), 0));
    List<String> lines = corrupt.lines().toList();
    assertEquals("PROBLEM: orphan: x", lines.get(0));
    assertEquals("PROBLEM: cycle: y", lines.get(1));
    assertEquals("PROBLEM: ... and 3 more", lines.get(2));
    assertEquals("WARNING: stale lease", lines.get(3));
    assertTrue(corrupt.contains(" Problems:\t5") && corrupt.contains(" Warnings:\t1"), corrupt);
    assertTrue(corrupt.contains(" Total files:\t5 (in the database: 2, open for write: 1)"), corrupt);
    assertEquals("The metadata in the database is CORRUPT", lines.get(lines.size() - 1));

    String warned = print(new MetadataCheckReport(COUNTS, List.of(), 0, List.of("stale lease"), 0));
    assertTrue(warned.strip().endsWith("The metadata in the database is HEALTHY"), warned);
    assertTrue(warned.contains("Status: HEALTHY"), warned);
  }

  @Test
  void aNonPositiveLeaseLimitIsRefused() {
    CliTestSupport.Run result = CliTestSupport.run("fsck", "--lease-hard-limit-sec", "0");
    assertEquals(2, result.exitCode(), result.err());
    assertTrue(result.err().contains("--lease-hard-limit-sec must be positive, got 0"), result.err());
  }
}

package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code canopy bench report --mode smoke --only subtree}: both systems started, the subtree section alone (tiny
 * directories built through the ClientProtocol, mv and rm -r timed, clients in the parent and a Spotify mix elsewhere
 * during a delete), its report. The figures mean nothing in smoke mode; that every row is there and nothing failed does.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SubtreeSmokeTest {
  // cells of a window row: system, clients, interval, s, operations, ops/s, p50, p99, max, failed, kept
  private static final int OPS_PER_SECOND = 5;
  private static final int P99 = 7;

  @TempDir
  Path directory;

  @Test
  void theSubtreeSectionRunsAloneWithEveryRow() throws Exception {
    Path report = directory.resolve("subtree.md");
    StringWriter output = new StringWriter();
    CommandLine commandLine = new CommandLine(new BenchCli());
    commandLine.setOut(new PrintWriter(output, true));
    int exit = commandLine.execute("report", "--mode", "smoke", "--only", "subtree", "--out", report.toString(),
        "--work", directory.resolve("work").toString());
    System.out.println(output);
    assertEquals(0, exit, "the subtree smoke run failed:\n" + output);

    String text = Files.readString(report);
    assertTrue(text.contains("--only subtree"), "the command is named:\n" + text);
    assertTrue(text.contains("## Subtree operations"), text);
    assertFalse(text.contains("## Small files") || text.contains("## Spotify mix"),
        "only the subtree section:\n" + text);
    for (int files : BenchMode.SMOKE.subtree().timedFiles()) {
      for (String operation : new String[] {"mv", "rm -r"}) {
        assertTrue(text.contains(String.format(java.util.Locale.ROOT, "| %s | %,d | ", operation, files)),
            "no row for " + operation + " of " + files + " files:\n" + text);
      }
    }
    assertTrue(text.contains("| Canopy | in the parent | undisturbed | ")
        && text.contains("| HDFS | in the parent | during the delete | "), text);
    assertTrue(text.contains("Canopy keeps >= 50%"), "the target line is missing:\n" + text);
    assertTrue(text.contains("Failed operations in the whole section: 0."), text);
    for (String system : new String[] {"Canopy", "HDFS"}) {
      String[] undisturbed = row(text, "| " + system + " | Spotify mix elsewhere | undisturbed | ");
      String[] during = row(text, "| " + system + " | Spotify mix elsewhere | during the delete | ");
      assertTrue(Double.parseDouble(undisturbed[OPS_PER_SECOND]) > 0 && Double.parseDouble(undisturbed[P99]) > 0,
          "the mix ran undisturbed on " + system + ":\n" + text);
      assertTrue(Double.parseDouble(during[P99]) > 0, "a mix call overlapped the delete on " + system + ":\n" + text);
    }
    assertTrue(text.contains("| throughput kept by the Spotify mix elsewhere | "), text);
    assertTrue(text.contains("the Spotify mix elsewhere kept "), "the target line names the mix:\n" + text);
  }

  /** The cells of the report's row that starts with {@code prefix}. */
  private static String[] row(String text, String prefix) {
    int start = text.indexOf(prefix);
    assertTrue(start >= 0, "no row " + prefix + ":\n" + text);
    String line = text.substring(start + 1, text.indexOf('\n', start));
    String[] cells = line.split("\\|");
    for (int i = 0; i < cells.length; i++) {
      cells[i] = cells[i].trim();
    }
    return cells;
  }
}

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
 * directories built through the ClientProtocol, mv and rm -r timed, clients in the parent during a delete), its
 * report. The figures mean nothing in smoke mode; that every row is there and nothing failed does.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SubtreeSmokeTest {
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
    assertTrue(text.contains("| Canopy | undisturbed | ") && text.contains("| HDFS | during the delete | "), text);
    assertTrue(text.contains("Canopy keeps >= 50%"), "the target line is missing:\n" + text);
    assertTrue(text.contains("Failed operations in the whole section: 0."), text);
  }
}

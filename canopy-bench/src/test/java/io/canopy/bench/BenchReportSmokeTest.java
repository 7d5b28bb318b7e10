package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The whole harness in smoke mode, as `canopy bench report --mode smoke` runs it: both systems, every workload, the
 * profile and the report. Keeps the harness working on every CI run; the figures themselves mean nothing here.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class BenchReportSmokeTest {
  @TempDir
  Path directory;

  @Test
  void smokeRunWritesACompleteReport() throws Exception {
    Path report = directory.resolve("benchmarks.md");
    StringWriter output = new StringWriter();
    CommandLine commandLine = new CommandLine(new BenchCli());
    commandLine.setOut(new PrintWriter(output, true));
    int exit = commandLine.execute("report", "--mode", "smoke", "--out", report.toString(), "--work",
        directory.resolve("work").toString());
    System.out.println(output);
    assertEquals(0, exit, "the smoke run failed:\n" + output);

    String text = Files.readString(report);
    for (String operation : NnThroughputComparison.OPERATIONS) {
      assertTrue(text.contains("| " + operation + " | "), "no NNThroughputBenchmark row for " + operation);
    }
    assertTrue(text.contains("## Spotify mix") && text.contains("## Write-heavy mix"), text);
    assertTrue(text.contains("| failed operations | 0 | 0 |"), "failed operations in a smoke run:\n" + text);
    assertTrue(text.contains("round trips per call"), "statement counts missing:\n" + text);
    assertTrue(text.contains("## Open at depth 2 and 10") && text.contains("| Canopy | ")
        && text.contains("| HDFS | "), "open-depth figures missing:\n" + text);
    assertTrue(text.contains("Durability, Canopy") && text.contains("Durability, HDFS"), text);
    assertTrue(text.contains("## Server CPU per operation"), "CPU per operation missing:\n" + text);
    for (String row : List.of("| NNTB create | ", "| NNTB delete | ", "| Spotify mix | ", "| Spotify mix, unpinned | ",
        "| Write-heavy mix | ", "| create + write 4 KB + close (per file) | ")) {
      assertTrue(text.contains(row), "no CPU-per-operation row " + row + ":\n" + text);
    }
    assertTrue(text.contains("| total ops/s, unpinned"), "unpinned Spotify mix missing:\n" + text);
    assertTrue(text.contains("## Create + write 4 KB + close") && text.contains("| failed files | 0 | 0 | |"),
        "create + write missing or failed:\n" + text);
    assertTrue(text.contains("| getBlockLocations | ") && text.contains("statements per call"), text);
    assertTrue(text.contains("## Small files") && text.contains("Failed files in the whole section: 0."),
        "small files missing or failed:\n" + text);
    assertTrue(text.contains("## Subtree operations") && text.contains("Failed operations in the whole section: 0.")
        && text.contains("Canopy keeps >= 50%"), "subtree operations missing or failed:\n" + text);
    assertNotNull(ImageIO.read(ReportWriter.crossoverChartPath(report).toFile()), "no small-files crossover chart");
    BufferedImage chart = ImageIO.read(ReportWriter.chartPath(report).toFile());
    assertNotNull(chart, "the chart is not a readable PNG");
    assertTrue(chart.getWidth() > 0 && chart.getHeight() > 0);
  }
}

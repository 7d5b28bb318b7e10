package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code canopy bench report --mode smoke --only small-files}: both systems started, the small-files section alone
 * (every size, every client this build has, the crossover to 1 MB, every byte read checked), its report and chart.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SmallFilesSmokeTest {
  @TempDir
  Path directory;

  @Test
  void theSmallFilesSectionRunsAloneAndChecksEveryFile() throws Exception {
    Path report = directory.resolve("small.md");
    StringWriter output = new StringWriter();
    CommandLine commandLine = new CommandLine(new BenchCli());
    commandLine.setOut(new PrintWriter(output, true));
    int exit = commandLine.execute("report", "--mode", "smoke", "--only", "small-files", "--out", report.toString(),
        "--work", directory.resolve("work").toString());
    System.out.println(output);
    assertEquals(0, exit, "the small-files smoke run failed:\n" + output);

    String text = Files.readString(report);
    assertTrue(text.contains("--only small-files"), "the command is named:\n" + text);
    assertTrue(text.contains("## Small files") && text.contains("### Crossover, 1 KB to 1 MB"), text);
    assertFalse(text.contains("## Spotify mix") || text.contains("## NNThroughputBenchmark"),
        "only the small-files section:\n" + text);
    assertTrue(text.contains("Failed files in the whole section: 0."), text);
    for (String row : new String[] {"| 1 KB | stock client → Canopy | ", "| 64 KB | stock client → HDFS | ",
        "| 1 MB | "}) {
      assertTrue(text.contains(row), "no row " + row + ":\n" + text);
    }
    boolean canopyClient = SmallFilesComparison.canopyClientMissing() == null;
    assertEquals(!canopyClient, text.contains("| 4 KB | Canopy client | not available in this build |"), text);
    assertTrue(text.contains("| Canopy client, 4 KB writes: throughput, Canopy / HDFS | "), text);
    BufferedImage chart = ImageIO.read(ReportWriter.crossoverChartPath(report).toFile());
    assertNotNull(chart, "the crossover chart is not a readable PNG");
    assertFalse(Files.exists(ReportWriter.chartPath(report)), "no overall ratio chart for one section");
  }

  @Test
  void anUnknownSectionIsRefusedWithTheKnownOnes() {
    StringWriter errors = new StringWriter();
    CommandLine commandLine = new CommandLine(new BenchCli());
    commandLine.setErr(new PrintWriter(errors, true));
    int exit = commandLine.execute("report", "--only", "tiny-files", "--work", directory.resolve("w").toString());
    assertEquals(2, exit, errors.toString());
    assertTrue(errors.toString().contains("--only: no section 'tiny-files'; sections that run alone: small-files, subtree"),
        errors.toString());
  }
}

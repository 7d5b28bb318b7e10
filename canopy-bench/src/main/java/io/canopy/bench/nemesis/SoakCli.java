package io.canopy.bench.nemesis;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code canopy soak}: a nemesis run of a given length, with its report. */
@Command(name = "canopy soak", mixinStandardHelpOptions = true,
    description = {"Runs the nemesis: a local cluster (3 namenodes, 3 datanodes, PostgreSQL) under a mixed workload "
        + "from several clients while faults are injected one after another: namenode SIGKILL and SIGSTOP/SIGCONT, "
        + "SIGKILL of the datanodes' process, PostgreSQL SIGSTOP and SIGKILL with restart, transient metadata-store "
        + "faults in every namenode and one namenode's clock moved (through the namenodes' fault control file). Then "
        + "it heals the cluster "
        + "and checks that no acknowledged operation was lost, every file's bytes are intact, `canopy fsck` finds "
        + "the metadata healthy and the shared histories are linearizable, and prints a report (Markdown).",
        "Example:", "  canopy soak --minutes 30 --report docs/soak-report.md"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:clean", "1:a violation was found (the report lists it) or the run failed",
        "2:invalid arguments"})
public final class SoakCli implements Callable<Integer> {
  @Option(names = "--minutes", paramLabel = "N", defaultValue = "10",
      description = "How long faults are injected (default: ${DEFAULT-VALUE}).")
  int minutes;

  @Option(names = "--faults", paramLabel = "N", defaultValue = "1000000",
      description = "Stop after this many faults, even before the time is up.")
  int faults;

  @Option(names = "--clients", paramLabel = "N", defaultValue = "4",
      description = "Workload clients, 2..16 (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--seed", paramLabel = "S", description = "Seed of the faults and the workload (default: random).")
  Long seed;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "The cluster directory (default: a new temporary one); it must not hold a running cluster.")
  Path dir;

  @Option(names = "--report", paramLabel = "FILE", description = "Also write the report to FILE.")
  Path report;

  @Option(names = "--keep", description = "Leave the cluster running afterwards (stop it with canopy down --dir).")
  boolean keep;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (minutes < 1) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--minutes must be at least 1");
    }
    Path directory = dir != null ? dir : Files.createTempDirectory("canopy-soak-");
    long chosenSeed = seed != null ? seed : Instant.now().toEpochMilli();
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    NemesisReport result = NemesisRun.run(new NemesisRun.Settings(directory, Duration.ofMinutes(minutes), faults,
        clients, chosenSeed, Duration.ofSeconds(3), keep), out);
    String text = "## Soak run of " + Instant.now() + "\n\nCommand: `bin/canopy soak --minutes " + minutes
        + " --clients " + clients + " --seed " + chosenSeed + "`\n\n" + result.markdown() + "\n";
    out.println(text);
    if (report != null) {
      Files.writeString(report, text, StandardCharsets.UTF_8);
    }
    return result.clean() ? 0 : 1;
  }

  public static void main(String[] args) {
    System.setProperty("log4j.configuration", "canopy-soak-log4j.properties");
    System.exit(new CommandLine(new SoakCli()).execute(args));
  }
}

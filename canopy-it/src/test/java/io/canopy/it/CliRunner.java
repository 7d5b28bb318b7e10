package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.cli.CanopyCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Runs {@code canopy} commands in this JVM against one cluster directory, as a user would type them; the processes
 * {@code up} starts are still real child processes.
 */
final class CliRunner {
  private static final Pattern DEFAULT_FS = Pattern.compile("(?m)^fs\\.defaultFS=(hdfs://127\\.0\\.0\\.1:\\d+)$");

  /**
   * Exit status and what was printed: {@code commandOut} by the command itself, {@code out} that plus what went to
   * System.out (FsShell's output, and log lines of this JVM), {@code err} likewise.
   */
  record Run(int exitCode, String commandOut, String out, String err) {
  }

  private static final int EXCERPT_LINES = 40;

  private final Path clusterDir;

  CliRunner(Path clusterDir) {
    this.clusterDir = clusterDir;
  }

  Path clusterDir() {
    return clusterDir;
  }

  /** Runs {@code canopy COMMAND --dir=DIR ARGS...}. */
  synchronized Run run(String... args) {
    String[] withDir = new String[args.length + 1];
    withDir[0] = args[0];
    withDir[1] = "--dir=" + clusterDir;
    System.arraycopy(args, 1, withDir, 2, args.length - 1);
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream shellOut = new ByteArrayOutputStream();
    ByteArrayOutputStream shellErr = new ByteArrayOutputStream();
    int exitCode;
    try {
      System.setOut(new PrintStream(shellOut, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(shellErr, true, StandardCharsets.UTF_8));
      exitCode = commandLine.execute(withDir);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    Run run = new Run(exitCode, out.toString(), out + shellOut.toString(StandardCharsets.UTF_8),
        err + shellErr.toString(StandardCharsets.UTF_8));
    System.out.println("$ canopy " + String.join(" ", withDir) + "\n" + run.out() + run.err() + "[exit "
        + exitCode + "]");
    return run;
  }

  /** Runs {@code canopy down} when the cluster directory exists: a test's clean-up stops whatever it started. */
  void downIfCreated() {
    if (java.nio.file.Files.exists(clusterDir)) {
      run("down");
    }
  }

  /**
   * The namenodes' warnings, errors and state changes (safe mode, leadership), the last {@value #EXCERPT_LINES} of
   * each log: what a failed command's message needs to be understood after the cluster directory is gone.
   */
  String namenodeLogExcerpt() {
    Path logs = clusterDir.resolve("logs");
    StringBuilder excerpt = new StringBuilder();
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(logs)) {
      for (Path log : files.filter(file -> file.getFileName().toString().startsWith("namenode-")).sorted().toList()) {
        java.util.List<String> lines = java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8).stream()
            .filter(line -> line.contains(" WARN ") || line.contains(" ERROR ") || line.contains("STATE*")
                || line.contains("afe mode")).toList();
        excerpt.append("\n--- ").append(log.getFileName()).append(" (warnings, errors, state changes; last ")
            .append(EXCERPT_LINES).append(") ---\n");
        lines.subList(Math.max(0, lines.size() - EXCERPT_LINES), lines.size())
            .forEach(line -> excerpt.append(line).append('\n'));
      }
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      excerpt.append("\n(no namenode log read from ").append(logs).append(": ").append(e).append(')');
    }
    return excerpt.toString();
  }

  /** Runs a command that must succeed. */
  Run succeed(String... args) {
    Run run = run(args);
    assertEquals(0, run.exitCode(), () -> "canopy " + String.join(" ", args) + " failed:\n" + run.out() + run.err()
        + namenodeLogExcerpt());
    return run;
  }

  /** {@code canopy up EXTRA...}; checks the last line names the client URI and returns it. */
  String up(String... extra) {
    String[] args = new String[extra.length + 1];
    args[0] = "up";
    System.arraycopy(extra, 0, args, 1, extra.length);
    long start = System.nanoTime();
    Run run = succeed(args);
    System.out.printf("canopy up became ready in %.1f s%n", (System.nanoTime() - start) / 1e9);
    Matcher matcher = DEFAULT_FS.matcher(run.out());
    assertTrue(matcher.find(), "no fs.defaultFS line in\n" + run.out());
    String lastLine = run.commandOut().strip().lines().reduce((first, second) -> second).orElse("");
    assertTrue(lastLine.startsWith("fs.defaultFS="), "fs.defaultFS must be the last line:\n" + run.out());
    List<String> lines = run.commandOut().strip().lines().toList();
    assertTrue(lines.size() >= 2 && lines.get(lines.size() - 2).matches("http=http://127\\.0\\.0\\.1:\\d+"),
        "the first namenode's HTTP address comes before fs.defaultFS:\n" + run.out());
    return matcher.group(1);
  }
}

package io.canopy.bench.nemesis;

import io.canopy.cli.CanopyCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** {@code canopy} commands on one cluster directory, run in this JVM (the processes they start are real ones). */
final class ClusterCommands {
  /** A command's exit status and what it printed. */
  record Result(int exitCode, String output) {
  }

  private final Path dir;

  ClusterCommands(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  /** Runs {@code canopy COMMAND --dir DIR ARGS...}. */
  synchronized Result run(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString()));
    all.addAll(List.of(args));
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(out, true));
    int exit = commandLine.execute(all.toArray(new String[0]));
    return new Result(exit, out.toString());
  }

  /** As {@link #run}, failing unless it exits 0. */
  String succeed(String command, String... args) throws IOException {
    Result result = run(command, args);
    if (result.exitCode() != 0) {
      throw new IOException("canopy " + command + " " + String.join(" ", args) + " exited " + result.exitCode()
          + ":\n" + result.output());
    }
    return result.output();
  }
}

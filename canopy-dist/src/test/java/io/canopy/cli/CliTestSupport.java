package io.canopy.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the CLI in-process and captures what it prints. */
final class CliTestSupport {
  private CliTestSupport() {
  }

  record Run(int exitCode, String out, String err) {
  }

  static Run run(String... args) {
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }
}

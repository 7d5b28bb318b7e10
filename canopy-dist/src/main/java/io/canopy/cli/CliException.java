package io.canopy.cli;

/**
 * A failure the user can act on: printed as one line ({@code canopy <command>: <message>}), never as a stack trace,
 * and turned into the process exit status.
 */
public final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public CliException(String message) {
    this(1, message);
  }

  public int exitCode() {
    return exitCode;
  }
}

package io.canopy.cli;

import java.io.PrintWriter;

/**
 * The progress of a long wait, as one line rewritten in place (carriage return) on a terminal, so a person can follow
 * it; nothing at all when the output is not a terminal (a log, a pipe, CI), where the command's step lines say
 * enough. {@link #clear} removes the line before the next ordinary line is printed.
 */
final class ProgressLine {
  private final PrintWriter out;
  private final boolean terminal;
  private int shownLength;

  ProgressLine(PrintWriter out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  /** On the process's console when it has one (standard input and output both a terminal), else silent. */
  static ProgressLine forConsole(PrintWriter out) {
    return new ProgressLine(out, System.console() != null);
  }

  /** Shows {@code text} in place of the line shown before. */
  void show(String text) {
    if (!terminal) {
      return;
    }
    String padding = " ".repeat(Math.max(0, shownLength - text.length()));
    out.print("\r" + text + padding);
    out.flush();
    shownLength = text.length();
  }

  /** Removes the line, if one is shown. */
  void clear() {
    if (!terminal || shownLength == 0) {
      return;
    }
    out.print("\r" + " ".repeat(shownLength) + "\r");
    out.flush();
    shownLength = 0;
  }
}

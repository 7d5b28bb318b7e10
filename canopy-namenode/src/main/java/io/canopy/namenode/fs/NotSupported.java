package io.canopy.namenode.fs;

/**
 * Canopy's own answers for what it does not support travel as their message alone. Hadoop's RPC server sends an
 * exception's printed stack trace as its message (HDFS's answers carry the namenode's stack that way): clients then
 * show it in full ({@code FileSystem} callers' {@code getMessage()}, some tools) or cut it to its first line (the
 * shell). A refusal has no server-side story to tell, so it gets no stack trace: every client shows one line.
 */
public final class NotSupported {
  private static final StackTraceElement[] NONE = new StackTraceElement[0];

  private NotSupported() {
  }

  /** {@code refusal} without a stack trace, ready to throw. */
  public static <E extends Throwable> E oneLine(E refusal) {
    refusal.setStackTrace(NONE);
    return refusal;
  }
}

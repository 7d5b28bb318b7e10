package io.canopy.namenode.smallfiles;

import io.canopy.namenode.SmallFilesConfig;

/**
 * Bounds of the small-file read endpoint, each the value of one {@link SmallFilesConfig} key
 * ({@link SmallFilesConfig#readSettings}).
 *
 * @param port where to listen; 0 = any free port
 * @param handlers threads serving connections, one connection each at a time
 * @param queuedConnections accepted connections waiting for a handler (at least 1); beyond them a connection is
 *     closed at once
 * @param timeoutMs how long a client may leave a request, a status or a packet unread or unsent
 * @param keepaliveMs how long an idle connection waits for the client's next request; 0 = one request each
 */
public record SmallBlockReadSettings(int port, int handlers, int queuedConnections, int timeoutMs, int keepaliveMs) {
  /** The most handler threads (a datanode's default transfer thread limit is 4096; these serve 64 KB blocks). */
  public static final int MAX_HANDLERS = 1024;
  /** The most waiting connections. */
  public static final int MAX_QUEUED_CONNECTIONS = 65_536;
  /** The shortest timeout: below it a loaded machine drops healthy clients. */
  public static final int MIN_TIMEOUT_MS = 1_000;

  public SmallBlockReadSettings {
    check(port >= 0 && port <= 65_535, SmallFilesConfig.READ_PORT, port, "must be a TCP port, 0 for any free one");
    check(handlers >= 1 && handlers <= MAX_HANDLERS, SmallFilesConfig.READ_HANDLER_COUNT, handlers,
        "must be between 1 and " + MAX_HANDLERS);
    // At least one: an idle kept connection lets its handler go when a connection waits in the queue.
    check(queuedConnections >= 1 && queuedConnections <= MAX_QUEUED_CONNECTIONS, SmallFilesConfig.READ_QUEUE_SIZE,
        queuedConnections, "must be between 1 and " + MAX_QUEUED_CONNECTIONS);
    check(timeoutMs >= MIN_TIMEOUT_MS, SmallFilesConfig.READ_TIMEOUT_MS, timeoutMs,
        "must be at least " + MIN_TIMEOUT_MS + " ms");
    check(keepaliveMs >= 0 && keepaliveMs <= timeoutMs, SmallFilesConfig.READ_KEEPALIVE_MS, keepaliveMs,
        "must be between 0 (no reuse) and " + SmallFilesConfig.READ_TIMEOUT_MS + " (" + timeoutMs + " ms)");
  }

  /** The defaults, listening on {@code port}. */
  public static SmallBlockReadSettings defaults(int port) {
    return new SmallBlockReadSettings(port, SmallFilesConfig.READ_HANDLER_COUNT_DEFAULT,
        SmallFilesConfig.READ_QUEUE_SIZE_DEFAULT, SmallFilesConfig.READ_TIMEOUT_MS_DEFAULT,
        SmallFilesConfig.READ_KEEPALIVE_MS_DEFAULT);
  }

  private static void check(boolean holds, String key, int value, String rule) {
    if (!holds) {
      throw new IllegalArgumentException(key + " = " + value + ": " + rule);
    }
  }
}

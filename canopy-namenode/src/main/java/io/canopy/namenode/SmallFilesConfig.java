package io.canopy.namenode;

import io.canopy.namenode.smallfiles.SmallBlockReadSettings;
import org.apache.hadoop.conf.Configuration;

/** The {@code canopy.smallfiles.*} keys: files stored in the database with their metadata (design 016). */
public final class SmallFilesConfig {
  /** Files up to this many bytes may be stored with their metadata ([SmallFiles] s.5.2: 64 KB); 0 turns it off. */
  public static final String MAX_BYTES = "canopy.smallfiles.max-bytes";
  public static final int MAX_BYTES_DEFAULT = 64 * 1024;
  /** The largest threshold accepted: the crossover with datanode storage lies well below it ([SmallFiles] s.6.3). */
  public static final int MAX_BYTES_LIMIT = 1024 * 1024;

  /**
   * Port of the namenode's small-file read endpoint, where stock HDFS clients read database-resident blocks over the
   * data transfer protocol (design 016, decision 4); 0 = any free port: the namenode advertises the port it bound.
   */
  public static final String READ_PORT = "canopy.smallfiles.read-port";
  public static final int READ_PORT_DEFAULT = 0;
  /** Handler threads of the read endpoint; each serves one connection at a time. */
  public static final String READ_HANDLER_COUNT = "canopy.smallfiles.read-handler.count";
  public static final int READ_HANDLER_COUNT_DEFAULT = 16;
  /** Connections accepted and waiting for a handler; a connection beyond them is closed at once. */
  public static final String READ_QUEUE_SIZE = "canopy.smallfiles.read-queue.size";
  public static final int READ_QUEUE_SIZE_DEFAULT = 64;
  /** A read endpoint connection whose client neither sends nor reads for this long is closed (HDFS: 60 s). */
  public static final String READ_TIMEOUT_MS = "canopy.smallfiles.read-timeout-ms";
  public static final int READ_TIMEOUT_MS_DEFAULT = 60_000;
  /**
   * How long an idle read endpoint connection is kept for the client's next request (HDFS's
   * dfs.datanode.socket.reuse.keepalive); given up sooner when another connection waits for a handler.
   */
  public static final String READ_KEEPALIVE_MS = "canopy.smallfiles.read-keepalive-ms";
  public static final int READ_KEEPALIVE_MS_DEFAULT = 4_000;

  private SmallFilesConfig() {
  }

  /**
   * The bytes of small files getBlockLocations keeps for the endpoint's read that follows (SmallBlockCache); 0 keeps
   * none (every endpoint read is a transaction).
   */
  public static final String READ_CACHE_BYTES = "canopy.smallfiles.read-cache-bytes";
  public static final long READ_CACHE_BYTES_DEFAULT = 64L * 1024 * 1024;
  /** How long a kept copy answers reads: the gap between a client's getBlockLocations and its read. */
  public static final long READ_CACHE_TTL_MS = 30_000;

  /** {@link #READ_CACHE_BYTES}, checked to be at least 0. */
  public static long readCacheBytes(Configuration conf) {
    long value = conf.getLongBytes(READ_CACHE_BYTES, READ_CACHE_BYTES_DEFAULT);
    if (value < 0) {
      throw new IllegalArgumentException(READ_CACHE_BYTES + " = " + value + ": must be at least 0 (0: keep none)");
    }
    return value;
  }

  /** The read endpoint's settings ({@code canopy.smallfiles.read-*}), checked. */
  public static SmallBlockReadSettings readSettings(Configuration conf) {
    return new SmallBlockReadSettings(conf.getInt(READ_PORT, READ_PORT_DEFAULT),
        conf.getInt(READ_HANDLER_COUNT, READ_HANDLER_COUNT_DEFAULT), conf.getInt(READ_QUEUE_SIZE,
            READ_QUEUE_SIZE_DEFAULT), conf.getInt(READ_TIMEOUT_MS, READ_TIMEOUT_MS_DEFAULT),
        conf.getInt(READ_KEEPALIVE_MS, READ_KEEPALIVE_MS_DEFAULT));
  }

  /** {@link #MAX_BYTES}, checked to lie between 0 and {@link #MAX_BYTES_LIMIT}. */
  public static int maxBytes(Configuration conf) {
    int value = conf.getInt(MAX_BYTES, MAX_BYTES_DEFAULT);
    if (value < 0 || value > MAX_BYTES_LIMIT) {
      throw new IllegalArgumentException(MAX_BYTES + " = " + value + ": must be between 0 (no small files in the "
          + "database) and " + MAX_BYTES_LIMIT + " bytes");
    }
    return value;
  }
}

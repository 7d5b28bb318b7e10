package io.canopy.namenode;

import org.apache.hadoop.conf.Configuration;

/** The {@code canopy.smallfiles.*} keys: files stored in the database with their metadata (design 016). */
public final class SmallFilesConfig {
  /** Files up to this many bytes may be stored with their metadata ([SmallFiles] s.5.2: 64 KB); 0 turns it off. */
  public static final String MAX_BYTES = "canopy.smallfiles.max-bytes";
  public static final int MAX_BYTES_DEFAULT = 64 * 1024;
  /** The largest threshold accepted: the crossover with datanode storage lies well below it ([SmallFiles] s.6.3). */
  public static final int MAX_BYTES_LIMIT = 1024 * 1024;

  private SmallFilesConfig() {
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

package io.canopy.namenode.smallfiles;

import java.util.Objects;

/**
 * The bytes of a database-resident file's one block and the block's generation stamp, as the database holds them.
 * {@code data} is the whole block: the endpoint serves ranges of it.
 */
public record SmallBlock(byte[] data, long generationStamp) {
  public SmallBlock {
    Objects.requireNonNull(data, "data");
    if (generationStamp < 0) {
      throw new IllegalArgumentException("generation stamp " + generationStamp + " is negative");
    }
  }
}

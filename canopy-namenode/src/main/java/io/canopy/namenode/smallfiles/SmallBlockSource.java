package io.canopy.namenode.smallfiles;

import java.io.IOException;
import java.util.Optional;

/**
 * Where {@link SmallBlockReadServer} reads a database-resident block from. The namenode implements it with one
 * read-only transaction; tests with a map. Called from the endpoint's handler threads, several at once.
 */
public interface SmallBlockSource {
  /**
   * The block with this (negative) id, or empty when no database-resident file holds it (deleted, or moved to
   * datanodes since the client asked for its locations).
   */
  Optional<SmallBlock> read(long blockId) throws IOException;

  /**
   * The block for a client that asks for generation stamp {@code askedGenerationStamp}: by default {@link #read}; a
   * source that keeps copies of exactly that version may answer from one.
   */
  default Optional<SmallBlock> read(long blockId, long askedGenerationStamp) throws IOException {
    return read(blockId);
  }
}

package io.canopy.namenode.smallfiles;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The test's database: blocks by id in a map, seeded bytes, and a switch that makes every read fail. */
final class InMemoryBlocks implements SmallBlockSource {
  /** The seed of every block's bytes (a block's bytes depend on the seed and its id only). */
  static final long SEED = 20_150_616L;

  private final Map<Long, SmallBlock> blocks = new ConcurrentHashMap<>();
  private final AtomicInteger reads = new AtomicInteger();
  private volatile String failure;

  /** Stores seeded random bytes of {@code size} as block {@code blockId} with {@code generationStamp}. */
  byte[] put(long blockId, int size, long generationStamp) {
    byte[] data = bytes(blockId, size);
    blocks.put(blockId, new SmallBlock(data, generationStamp));
    return data;
  }

  static byte[] bytes(long blockId, int size) {
    byte[] data = new byte[size];
    new Random(SEED ^ blockId).nextBytes(data);
    return data;
  }

  /** Every read from now on throws an IOException with this message (null: reads work again). */
  void failWith(String message) {
    failure = message;
  }

  int reads() {
    return reads.get();
  }

  @Override
  public Optional<SmallBlock> read(long blockId) throws IOException {
    reads.incrementAndGet();
    if (failure != null) {
      throw new IOException(failure);
    }
    return Optional.ofNullable(blocks.get(blockId));
  }
}

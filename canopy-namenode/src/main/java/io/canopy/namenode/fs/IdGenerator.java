package io.canopy.namenode.fs;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.IdRange;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import java.util.EnumMap;
import java.util.Map;

/**
 * Hands out cluster-unique ids from ranges this namenode reserves in the database, one round trip per
 * {@code batchSize} ids. Ids of a rolled-back operation are simply skipped.
 */
public final class IdGenerator {
  private final MetadataStore store;
  private final int batchSize;
  private final Map<IdKind, long[]> ranges = new EnumMap<>(IdKind.class); // {next, endExclusive}

  public IdGenerator(MetadataStore store, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("id batch size must be at least 1, got " + batchSize);
    }
    this.store = store;
    this.batchSize = batchSize;
  }

  public long next(IdKind kind) throws StoreException {
    synchronized (this) {
      long[] range = ranges.get(kind);
      if (range != null && range[0] < range[1]) {
        return range[0]++;
      }
    }
    // Reserved outside the lock: with a database that does not answer, callers must not queue behind one another,
    // each waiting out the previous one's timeout before its own. Concurrent reservations each take a whole range;
    // the ranges left over are skipped, like the ids of a rolled-back operation.
    IdRange fresh = store.allocateIds(kind, batchSize);
    synchronized (this) {
      long[] range = ranges.get(kind);
      if (range == null || range[0] >= range[1]) {
        range = new long[] {fresh.first(), fresh.endExclusive()};
        ranges.put(kind, range);
        return range[0]++;
      }
      return fresh.first(); // another caller refilled meanwhile: use one id of this range, skip its rest
    }
  }

  /**
   * A value of the kind larger than every value any namenode has handed out so far: a fresh single allocation
   * from the database (generation stamps of pipeline recovery must grow for the block).
   */
  public long nextGlobal(IdKind kind) throws StoreException {
    return store.allocateIds(kind, 1).first();
  }
}

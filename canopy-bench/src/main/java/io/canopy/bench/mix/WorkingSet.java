package io.canopy.bench.mix;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The files (or directories) the mix works on, shared by every client thread: random picking by index, adding, and
 * removal, without one global lock. Entries live in stripes (array lists, each with its own monitor, held for a few
 * nanoseconds); adds go round-robin over the stripes so they stay balanced; a pick chooses a stripe then an index in
 * it, which is uniform while the stripes are of equal size and close to uniform otherwise. Removal marks the entry
 * (see {@link PathEntry#markRemoved}) and the stripe drops it lazily when a pick lands on it, so removal costs O(1).
 */
final class WorkingSet {
  /** Enough stripes that 64 client threads rarely meet on one; few enough that tiny sets stay close to uniform. */
  static final int MAX_STRIPES = 64;
  /** Entries per stripe at least, when the set is small. */
  static final int MIN_ENTRIES_PER_STRIPE = 32;

  private final String kind;
  private final List<PathEntry>[] stripes;
  private final AtomicInteger nextStripe = new AtomicInteger();
  private final AtomicInteger live = new AtomicInteger();

  /** A set holding {@code initial}, sized for it. {@code kind} ("file", "directory") names it in messages. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  WorkingSet(String kind, Collection<PathEntry> initial) {
    this.kind = kind;
    int stripeCount = Math.max(1, Math.min(MAX_STRIPES, initial.size() / MIN_ENTRIES_PER_STRIPE));
    stripes = new List[stripeCount];
    for (int i = 0; i < stripeCount; i++) {
      stripes[i] = new ArrayList<>(initial.size() / stripeCount + 16);
    }
    initial.forEach(this::add);
  }

  void add(PathEntry entry) {
    if (entry.removed()) {
      throw new IllegalArgumentException("cannot add the removed " + kind + " " + entry);
    }
    List<PathEntry> stripe = stripes[Math.floorMod(nextStripe.getAndIncrement(), stripes.length)];
    synchronized (stripe) {
      stripe.add(entry);
    }
    live.incrementAndGet();
  }

  /** A random live entry, or null if the set is empty. The caller locks it and re-checks it is still live. */
  PathEntry pick(Random random) {
    while (live.get() > 0) {
      List<PathEntry> stripe = stripes[stripes.length == 1 ? 0 : random.nextInt(stripes.length)];
      synchronized (stripe) {
        int size = stripe.size();
        if (size == 0) {
          continue;
        }
        int index = random.nextInt(size);
        PathEntry entry = stripe.get(index);
        if (!entry.removed()) {
          return entry;
        }
        // Swap-remove the dead entry: O(1), order does not matter.
        stripe.set(index, stripe.get(size - 1));
        stripe.remove(size - 1);
      }
    }
    return null;
  }

  /** Marks the entry removed; the caller holds its write lock (see {@link PathEntry#lockExclusive}). */
  void remove(PathEntry entry) {
    entry.markRemoved();
    live.decrementAndGet();
  }

  /** Live entries now. */
  int size() {
    return live.get();
  }

  int stripeCount() {
    return stripes.length;
  }

  String kind() {
    return kind;
  }
}

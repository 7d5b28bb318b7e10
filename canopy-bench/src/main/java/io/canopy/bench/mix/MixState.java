package io.canopy.bench.mix;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the client threads of one run share: the working sets, the files this run created (oldest first, so deletes
 * take them before the original tree), the phase clock, and the first failure messages. Every member is
 * thread-safe.
 */
final class MixState {
  final WorkingSet files;
  final WorkingSet directories;
  /** Files created by this run, oldest first; a delete polls here before it picks a random file. */
  final Queue<PathEntry> createdFiles = new ConcurrentLinkedQueue<>();
  /** Distinguishes this run's new names from every earlier run's on the same namespace. */
  final String runId;
  /** Owner for chown dir: the current user, so HDFS accepts it without superuser rights. */
  final String userName;
  /** Group for chown dir. */
  final String group;
  final int maxFileBytes;
  /** Replication of created files, 0 = the file system's default. */
  final short replication;
  /** The lowest factor set by set replication ({@link MixSettings#lowestSetReplication}). */
  final int lowestSetReplication;
  final OperationMix mix;
  final LongSupplier nanoClock;
  /** Operations recorded so far (for progress lines only). */
  final LongAdder recordedOperations = new LongAdder();

  private final int maxFailureMessages;
  private final AtomicInteger failureMessageCount = new AtomicInteger();
  private final Queue<String> failureMessages = new ConcurrentLinkedQueue<>();

  // Phase boundaries (nanoClock time), set once before the workers start.
  private volatile long warmupEndNanos;
  private volatile long endNanos;
  /** Recorded operations to run in all, 0 = run for the duration; claimed one at a time by the threads. */
  private final long totalOperations;
  private final AtomicLong claimedOperations = new AtomicLong();

  MixState(MixNamespace namespace, MixSettings settings, String runId, String userName, String group,
      LongSupplier nanoClock) {
    List<PathEntry> fileEntries = new ArrayList<>(namespace.files().size());
    namespace.files().forEach(path -> fileEntries.add(new PathEntry(path, false)));
    List<PathEntry> directoryEntries = new ArrayList<>(namespace.directories().size());
    namespace.directories().forEach(path -> directoryEntries.add(new PathEntry(path, false)));
    this.files = new WorkingSet("file", fileEntries);
    this.directories = new WorkingSet("directory", directoryEntries);
    this.runId = Objects.requireNonNull(runId, "runId");
    this.userName = Objects.requireNonNull(userName, "userName");
    this.group = Objects.requireNonNull(group, "group");
    this.maxFileBytes = settings.shape().maxFileBytes();
    this.replication = settings.shape().replication();
    this.lowestSetReplication = settings.lowestSetReplication();
    this.mix = settings.mix();
    this.nanoClock = nanoClock;
    this.maxFailureMessages = settings.maxFailureMessages();
    this.totalOperations = settings.totalOperations();
  }

  /** Starts the clock: warm-up from now, then recording for {@code durationNanos} (ignored when count-based). */
  void start(long warmupNanos, long durationNanos) {
    long now = nanoClock.getAsLong();
    warmupEndNanos = now + warmupNanos;
    endNanos = warmupEndNanos + durationNanos;
  }

  /**
   * Ends a duration-based run now, before its planned end: each thread finishes its operation in flight and stops
   * (a load measured in windows runs until it is closed, see {@link MixLoad}).
   */
  void stop() {
    com.google.common.base.Preconditions.checkState(totalOperations == 0,
        "a run of a fixed operation count ends after its operations, not when stopped");
    endNanos = nanoClock.getAsLong();
  }

  long warmupEndNanos() {
    return warmupEndNanos;
  }

  /** True while the warm-up lasts at {@code now}. */
  boolean warmingUp(long now) {
    return now - warmupEndNanos < 0;
  }

  /**
   * For a recorded operation about to start at {@code now}: true if it may run, false if the run is over (the
   * duration has passed, or every one of the fixed number of operations has been claimed).
   */
  boolean claimRecordedOperation(long now) {
    if (totalOperations > 0) {
      return claimedOperations.incrementAndGet() <= totalOperations;
    }
    return now - endNanos < 0;
  }

  /** Keeps the message if fewer than the cap were kept so far. */
  void reportFailure(String message) {
    if (failureMessageCount.incrementAndGet() <= maxFailureMessages) {
      failureMessages.add(message);
    }
  }

  List<String> failureMessages() {
    return List.copyOf(failureMessages);
  }
}

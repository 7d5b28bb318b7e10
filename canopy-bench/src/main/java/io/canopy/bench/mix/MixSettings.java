package io.canopy.bench.mix;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything that decides a mix run; the harness passes the same settings (seed included) to both systems.
 *
 * @param baseDirectory absolute path under which the namespace is built (and found again by later runs)
 * @param shape the namespace tree
 * @param mix operation weights
 * @param threads client threads, each with its own {@code FileSystem} (see {@link MixRunner})
 * @param warmup how long the mix runs before recording starts
 * @param duration how long the recorded part runs, when {@code totalOperations} is 0
 * @param totalOperations recorded operations to run across all threads, or 0 to run for {@code duration}
 * @param seed seeds the namespace contents, every thread's operation sequence and the latency reservoirs
 * @param builderThreads threads that build (or scan) the namespace
 * @param chownGroup group for chown dir, or null for the current user's primary group
 * @param connectionPerThread true: each thread's client runs as its own UGI so it gets its own RPC connection
 *     (Hadoop shares one connection per user, address and protocol within a JVM); false: one shared connection
 * @param maxLatencySamplesPerOperation latency samples kept per operation type over all threads (memory bound)
 * @param maxFailureMessages failure messages kept for the result (the counts are always complete)
 * @param lowestSetReplication the lowest factor the set-replication operation sets (it cycles from it up to
 *     {@value #HIGHEST_SET_REPLICATION}); 1 by default, 2 in a test that loses a zone or a datanode on purpose, where
 *     a file left with one replica there would be lost by the user's choice, not by the system
 */
public record MixSettings(String baseDirectory, NamespaceShape shape, OperationMix mix, int threads, Duration warmup,
    Duration duration, long totalOperations, long seed, int builderThreads, String chownGroup,
    boolean connectionPerThread, int maxLatencySamplesPerOperation, int maxFailureMessages,
    int lowestSetReplication) {
  public static final String DEFAULT_BASE_DIRECTORY = "/canopy-bench/mix";
  public static final int DEFAULT_THREADS = 16;
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(10);
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
  public static final long DEFAULT_SEED = 20_170_101L;
  public static final int DEFAULT_BUILDER_THREADS = 64;
  public static final int DEFAULT_MAX_LATENCY_SAMPLES_PER_OPERATION = 2_000_000;
  public static final int DEFAULT_MAX_FAILURE_MESSAGES = 10;
  /** More client threads than this is a typo, not a benchmark of one machine. */
  public static final int MAX_THREADS = 4096;
  /** The highest factor the set-replication operation sets. */
  public static final int HIGHEST_SET_REPLICATION = 3;

  public MixSettings {
    Objects.requireNonNull(baseDirectory, "baseDirectory");
    if (!baseDirectory.startsWith("/") || baseDirectory.equals("/")) {
      throw new IllegalArgumentException("baseDirectory must be an absolute path below /, got '" + baseDirectory
          + "'");
    }
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(mix, "mix");
    requireWithin("threads", threads, 1, MAX_THREADS);
    requireWithin("builderThreads", builderThreads, 1, MAX_THREADS);
    Objects.requireNonNull(warmup, "warmup");
    Objects.requireNonNull(duration, "duration");
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("warmup must not be negative, got " + warmup);
    }
    if (totalOperations < 0) {
      throw new IllegalArgumentException("totalOperations must be >= 0 (0 = run for the duration), got "
          + totalOperations);
    }
    if (totalOperations == 0 && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException("duration must be positive when totalOperations is 0, got " + duration);
    }
    requireWithin("maxLatencySamplesPerOperation", maxLatencySamplesPerOperation, threads, Integer.MAX_VALUE / 2);
    requireWithin("maxFailureMessages", maxFailureMessages, 0, 10_000);
    requireWithin("lowestSetReplication", lowestSetReplication, 1, HIGHEST_SET_REPLICATION);
  }

  /** Defaults: Spotify mix, default shape under {@value #DEFAULT_BASE_DIRECTORY}, 16 threads, 10 s + 60 s. */
  public static MixSettings defaults() {
    return new MixSettings(DEFAULT_BASE_DIRECTORY, NamespaceShape.defaults(), OperationMix.spotify(), DEFAULT_THREADS,
        DEFAULT_WARMUP, DEFAULT_DURATION, 0, DEFAULT_SEED, DEFAULT_BUILDER_THREADS, null, true,
        DEFAULT_MAX_LATENCY_SAMPLES_PER_OPERATION, DEFAULT_MAX_FAILURE_MESSAGES, 1);
  }

  public MixSettings withBaseDirectory(String value) {
    return new MixSettings(value, shape, mix, threads, warmup, duration, totalOperations, seed, builderThreads,
        chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withShape(NamespaceShape value) {
    return new MixSettings(baseDirectory, value, mix, threads, warmup, duration, totalOperations, seed,
        builderThreads, chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withMix(OperationMix value) {
    return new MixSettings(baseDirectory, shape, value, threads, warmup, duration, totalOperations, seed,
        builderThreads, chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withThreads(int value) {
    return new MixSettings(baseDirectory, shape, mix, value, warmup, duration, totalOperations, seed, builderThreads,
        chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withWarmup(Duration value) {
    return new MixSettings(baseDirectory, shape, mix, threads, value, duration, totalOperations, seed,
        builderThreads, chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  /** Run the recorded part for this long (and not for a fixed operation count). */
  public MixSettings withDuration(Duration value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, value, 0, seed, builderThreads, chownGroup,
        connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  /** Run the recorded part for this many operations over all threads (and not for a duration). */
  public MixSettings withTotalOperations(long value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, value, seed, builderThreads,
        chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withSeed(long value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, value,
        builderThreads, chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withBuilderThreads(int value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, seed, value,
        chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withChownGroup(String value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, seed,
        builderThreads, value, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withConnectionPerThread(boolean value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, seed,
        builderThreads, chownGroup, value, maxLatencySamplesPerOperation, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withMaxLatencySamplesPerOperation(int value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, seed,
        builderThreads, chownGroup, connectionPerThread, value, maxFailureMessages, lowestSetReplication);
  }

  public MixSettings withMaxFailureMessages(int value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, seed,
        builderThreads, chownGroup, connectionPerThread, maxLatencySamplesPerOperation, value, lowestSetReplication);
  }

  public MixSettings withLowestSetReplication(int value) {
    return new MixSettings(baseDirectory, shape, mix, threads, warmup, duration, totalOperations, seed,
        builderThreads, chownGroup, connectionPerThread, maxLatencySamplesPerOperation, maxFailureMessages, value);
  }

  /** True if the recorded part ends after {@link #totalOperations} rather than after {@link #duration}. */
  public boolean countBased() {
    return totalOperations > 0;
  }

  private static void requireWithin(String name, long value, long minimum, long maximum) {
    if (value < minimum || value > maximum) {
      throw new IllegalArgumentException(name + " must be within [" + minimum + ", " + maximum + "], got " + value);
    }
  }
}

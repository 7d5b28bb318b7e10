package io.canopy.bench.mix;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Relative weights of the {@link MixOperation}s, and sampling of the next operation. Immutable and thread-safe; the
 * {@link Random} passed to {@link #sample} carries the (seeded, per-thread) state.
 *
 * <p>Weights are non-negative numbers of any scale; {@link #percent} normalises them. The predefined mixes are
 * given in percent.
 */
public final class OperationMix {
  /**
   * Percent of file creates in the write-heavy variant of docs/references.md [HopsFS-1M] s.V-A ("Throughput
   * Scalability").
   */
  public static final double WRITE_HEAVY_CREATE_PERCENT = 20.0;

  private final String name;
  private final EnumMap<MixOperation, Double> weights;
  private final MixOperation[] operations;
  /** cumulative[i] = sum of the weights of operations[0..i]; sampling is a binary search in it. */
  private final double[] cumulative;
  private final double total;

  private OperationMix(String name, Map<MixOperation, Double> weights) {
    this.name = Objects.requireNonNull(name, "name");
    this.weights = new EnumMap<>(MixOperation.class);
    for (MixOperation operation : MixOperation.values()) {
      double weight = weights.getOrDefault(operation, 0.0);
      if (!(weight >= 0.0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("weight of " + operation + " must be a finite number >= 0, got " + weight);
      }
      this.weights.put(operation, weight);
    }
    this.operations = this.weights.entrySet().stream().filter(entry -> entry.getValue() > 0.0)
        .map(Map.Entry::getKey).toArray(MixOperation[]::new);
    if (operations.length == 0) {
      throw new IllegalArgumentException("mix '" + name + "' has no operation with a positive weight");
    }
    this.cumulative = new double[operations.length];
    double sum = 0.0;
    for (int i = 0; i < operations.length; i++) {
      sum += this.weights.get(operations[i]);
      cumulative[i] = sum;
    }
    this.total = sum;
  }

  /** A mix with the given weights (missing operations weigh 0). */
  public static OperationMix of(String name, Map<MixOperation, Double> weights) {
    return new OperationMix(name, weights);
  }

  /**
   * The operation frequencies of Spotify's HDFS cluster (docs/references.md [HopsFS-1M] Fig. 3), in percent; they sum
   * to 100.
   */
  public static OperationMix spotify() {
    EnumMap<MixOperation, Double> weights = new EnumMap<>(MixOperation.class);
    weights.put(MixOperation.READ_FILE, 68.73);
    weights.put(MixOperation.STAT_FILE, 13.04);
    weights.put(MixOperation.LS_DIR, 8.52);
    weights.put(MixOperation.STAT_DIR, 3.96);
    weights.put(MixOperation.CREATE_FILE, 2.7);
    weights.put(MixOperation.RENAME_FILE, 1.3);
    weights.put(MixOperation.DELETE_FILE, 0.75);
    weights.put(MixOperation.LS_FILE, 0.49);
    weights.put(MixOperation.CHOWN_DIR, 0.32);
    weights.put(MixOperation.SET_REPLICATION, 0.14);
    weights.put(MixOperation.CHMOD_FILE, 0.02);
    weights.put(MixOperation.MKDIR, 0.02);
    weights.put(MixOperation.CHMOD_DIR, 0.01);
    return new OperationMix("spotify", weights);
  }

  /**
   * The write-heavy variant: creates at 20% and every other Spotify operation scaled by the same factor
   * (80 / 97.3) so the total stays 100%. docs/references.md [HopsFS-1M] s.V-A words it as "decreasing the frequency of
   * the file read operations accordingly"; {@link #writeHeavyFromReads()} is that literal reading.
   */
  public static OperationMix writeHeavy() {
    OperationMix spotify = spotify();
    double create = spotify.weights.get(MixOperation.CREATE_FILE);
    double scale = (100.0 - WRITE_HEAVY_CREATE_PERCENT) / (spotify.total - create);
    EnumMap<MixOperation, Double> weights = new EnumMap<>(MixOperation.class);
    spotify.weights.forEach((operation, weight) -> weights.put(operation, weight * scale));
    weights.put(MixOperation.CREATE_FILE, WRITE_HEAVY_CREATE_PERCENT);
    return new OperationMix("write-heavy", weights);
  }

  /** Creates at 20% taken from reads only (68.73 - 17.3 = 51.43% reads); the rest as in Spotify. */
  public static OperationMix writeHeavyFromReads() {
    OperationMix spotify = spotify();
    EnumMap<MixOperation, Double> weights = new EnumMap<>(spotify.weights);
    double moved = WRITE_HEAVY_CREATE_PERCENT - weights.get(MixOperation.CREATE_FILE);
    weights.put(MixOperation.READ_FILE, weights.get(MixOperation.READ_FILE) - moved);
    weights.put(MixOperation.CREATE_FILE, WRITE_HEAVY_CREATE_PERCENT);
    return new OperationMix("write-heavy-from-reads", weights);
  }

  /** Every operation equally likely: for tests that must see every operation type. */
  public static OperationMix uniform() {
    EnumMap<MixOperation, Double> weights = new EnumMap<>(MixOperation.class);
    for (MixOperation operation : MixOperation.values()) {
      weights.put(operation, 1.0);
    }
    return new OperationMix("uniform", weights);
  }

  /** One of the predefined mixes by name: spotify, write-heavy, write-heavy-from-reads, uniform. */
  public static OperationMix named(String name) {
    return switch (name) {
      case "spotify" -> spotify();
      case "write-heavy" -> writeHeavy();
      case "write-heavy-from-reads" -> writeHeavyFromReads();
      case "uniform" -> uniform();
      default -> throw new IllegalArgumentException(
          "unknown mix '" + name + "': one of spotify, write-heavy, write-heavy-from-reads, uniform");
    };
  }

  public String name() {
    return name;
  }

  /** The weight as given. */
  public double weight(MixOperation operation) {
    return weights.get(operation);
  }

  /** The share of the operation, in percent of all operations. */
  public double percent(MixOperation operation) {
    return 100.0 * weights.get(operation) / total;
  }

  /** Sum of the weights as given (100 for the predefined percent mixes, up to rounding). */
  public double totalWeight() {
    return total;
  }

  /** Every operation's weight as given, in {@link MixOperation} order, zeros included. */
  public Map<MixOperation, Double> weights() {
    return Collections.unmodifiableMap(weights);
  }

  /** The next operation, drawn with probability proportional to its weight. */
  public MixOperation sample(Random random) {
    double point = random.nextDouble() * total;
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (point < cumulative[middle]) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return operations[low];
  }

  /** One line: {@code spotify: read file 68.73%, stat file 13.04%, ...}, operations with weight 0 left out. */
  public String describe() {
    StringBuilder text = new StringBuilder(name).append(':');
    String separator = " ";
    for (MixOperation operation : operations) {
      text.append(separator).append(operation.label()).append(' ')
          .append(String.format(Locale.ROOT, "%.4g%%", percent(operation)).replaceAll("\\.?0+%$", "%"));
      separator = ", ";
    }
    return text.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}

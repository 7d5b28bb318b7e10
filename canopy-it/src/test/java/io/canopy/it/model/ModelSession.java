package io.canopy.it.model;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * One model-based test run against a file system reached through {@code clients}: episodes of random steps, each on
 * a fresh directory under {@value #BASE}, compared with {@link HdfsModel}; on a divergence, the sequence is shrunk
 * and the test fails with the seed and the shortest sequence found.
 */
final class ModelSession {
  static final String SEED_PROPERTY = "canopy.model.seed";
  static final String OPS_PROPERTY = "canopy.model.ops";
  static final String KINDS_PROPERTY = "canopy.model.kinds";
  /**
   * true: expect a mkdirs or create that fails a namespace quota check to change nothing (a departure from HDFS,
   * which keeps the parents made before the failure; see {@link HdfsModel.Settings}).
   */
  static final String BASE = "/model";
  static final int EPISODE_OPS = 150;
  static final int SHRINK_TRIALS = 400;
  static final Duration SHRINK_BUDGET = Duration.ofMinutes(3);
  /** One-block files of at most 1 KB; two replicas, so storage space is twice the length. */
  static final long BLOCK_SIZE = 1024;
  static final short REPLICATION = 2;
  static final short UMASK = 022;
  /** Listings come in pages of two entries: the client's paging (startAfter) is exercised on every listing. */
  static final int LISTING_PAGE = 2;

  private final String target;
  private final List<DistributedFileSystem> clients;
  private final String opsProperty;
  private final AtomicInteger directories = new AtomicInteger();

  /**
   * {@code target} names the system in messages; step i goes through client i modulo their number;
   * {@code opsProperty} is the knob of the run's length (for the replay hint).
   */
  ModelSession(String target, List<DistributedFileSystem> clients, String opsProperty) {
    this.target = target;
    this.clients = List.copyOf(clients);
    this.opsProperty = opsProperty;
  }

  /** The settings both sides of a model test share (the cluster's and its clients'). */
  static Configuration configure(Configuration conf) {
    conf.setLong("dfs.blocksize", BLOCK_SIZE);
    conf.setInt("dfs.bytes-per-checksum", 512);
    conf.setInt("dfs.replication", REPLICATION);
    conf.set("fs.permissions.umask-mode", "0" + Integer.toOctalString(UMASK));
    conf.setInt("dfs.ls.limit", LISTING_PAGE);
    return conf;
  }

  /** A new empty directory as the run's root, and a model of it. */
  ModelRunner.Fixture fixture() {
    String root = BASE + "/run-" + directories.incrementAndGet();
    DistributedFileSystem fs = clients.get(0);
    try {
      fs.mkdirs(new Path(root));
      FileStatus status = fs.getFileStatus(new Path(root));
      HdfsModel model = new HdfsModel(new HdfsModel.Settings(BLOCK_SIZE, REPLICATION, status.getOwner(),
          status.getGroup(), (short) (status.getPermission().toShort() & 01777), UMASK));
      HadoopFsUnderTest system = new HadoopFsUnderTest(clients, root);
      return new ModelRunner.Fixture() {
        @Override
        public HdfsModel model() {
          return model;
        }

        @Override
        public FsUnderTest system() {
          return system;
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code ops} random steps of {@code kinds}; fails the test on the first divergence, shrunk. */
  void run(long seed, int ops, Set<OpKind> kinds) {
    Set<OpKind> off = EnumSet.complementOf(EnumSet.copyOf(kinds));
    String replay = String.format("-D%s=%d -D%s=%d -D%s=%s", SEED_PROPERTY, seed, opsProperty, ops,
        KINDS_PROPERTY, kindsSpec(kinds));
    System.out.printf("model-based test against %s: seed %d, %d operations, kinds %s, not run: %s (replay with %s)%n",
        target, seed, ops, kinds, off, replay);
    Random episodes = new Random(seed);
    Map<OpKind, Integer> generated = new EnumMap<>(OpKind.class);
    Map<String, Integer> outcomes = new TreeMap<>();
    int done = 0;
    while (done < ops) {
      int count = Math.min(EPISODE_OPS, ops - done);
      ModelRunner.Fixture fixture = fixture();
      ModelRunner.Run run = ModelRunner.generate(new OpGenerator(episodes.nextLong(), kinds), count,
          fixture.model(), fixture.system());
      for (int i = 0; i < run.outcomes().size(); i++) {
        Op op = run.steps().get(i);
        generated.merge(op.kind(), 1, Integer::sum);
        String value = run.outcomes().get(i).value();
        outcomes.merge(op.kind() + " " + (value.startsWith("throws") || value.length() < 10 ? value : "ok"), 1,
            Integer::sum);
      }
      if (run.divergence() != null) {
        ModelRunner.Shrunk shrunk = ModelRunner.shrink(run, this::fixture, SHRINK_TRIALS, SHRINK_BUDGET);
        fail(String.format("%s diverged from the HDFS model (seed %d; replay with %s).%n"
                + "Shortest sequence found (%d of %d steps, %d trials%s), on a fresh directory:%n%s"
                + "The original run, last step diverging:%n%s",
            target, seed, replay, shrunk.run().steps().size(), run.steps().size(), shrunk.trials(),
            shrunk.bounded() ? ", stopped by its bound: may not be minimal" : "", ModelRunner.describe(shrunk.run()),
            ModelRunner.describe(run)));
      }
      done += count;
    }
    System.out.println("model-based test: operations run per kind " + generated);
    System.out.println("model-based test: outcomes (the model's) " + outcomes);
    if (ops >= 300) {
      // A generator that stopped producing a kind would pass vacuously.
      assertTrue(generated.keySet().containsAll(kinds), "operation kinds generated in " + ops + " operations: "
          + generated.keySet() + ", enabled: " + kinds);
    }
  }

  private static String kindsSpec(Set<OpKind> kinds) {
    StringBuilder spec = new StringBuilder();
    for (OpKind kind : kinds) {
      spec.append(spec.length() == 0 ? "" : ",").append(kind.name().toLowerCase(java.util.Locale.ROOT));
    }
    return spec.toString();
  }

  /** The seed of this run: {@value #SEED_PROPERTY}, or a new random one (printed). */
  static long seed() {
    return Long.getLong(SEED_PROPERTY, new Random().nextLong());
  }
}

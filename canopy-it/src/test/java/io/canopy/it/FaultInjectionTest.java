package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.datanode.DataNodeLauncher;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import io.canopy.namenode.fault.FaultInjectingStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client operations through a namenode whose metadata store fails transiently at random (see
 * {@link FaultInjectingStore}): statements fail as deadlocks do, commits fail before reaching the database, and
 * commits take effect but lose their reply. The namenode must hide all of it while its retry budget lasts: every
 * call succeeds, and takes effect exactly once. The intended design (docs/references.md [Design] s.6) re-runs a
 * non-idempotent call whose commit reply was lost and finds its first outcome in the retry cache, keyed by the RPC's
 * (client id, call id).
 *
 * <p>Each thread runs scenarios of dependent steps under its own directory; a scenario stops at its first failed
 * step. Afterwards (injection off) each scenario's subtree must be the model's state after its last successful
 * step, or, after a failure the namenode documents as outcome-unknown ("may or may not have taken effect"), that
 * state or the state with the failed step applied exactly once.
 *
 * <p>Replay with {@code -Dcanopy.fault.seed=<seed>}; {@code -Dcanopy.fault.probability} (default 0.05) and
 * {@code -Dcanopy.fault.scenarios} (per thread, default 10) tune it; {@code -Dcanopy.fault.lost-replies=false}
 * injects every fault but lost commit replies.
 */
class FaultInjectionTest {
  static final String SEED_PROPERTY = "canopy.fault.seed";
  static final String PROBABILITY_PROPERTY = "canopy.fault.probability";
  static final String SCENARIOS_PROPERTY = "canopy.fault.scenarios";
  /** false: no commit loses its reply (every other fault stays), to see the rest pass without a retry cache. */
  static final String LOST_REPLIES_PROPERTY = "canopy.fault.lost-replies";
  static final int THREADS = 4;
  /** Far more than a 5% fault rate needs: failures seen by clients are not the budget running out. */
  static final int MAX_ATTEMPTS = 30;
  static final String OUTCOME_UNKNOWN = "may or may not have taken effect";

  @TempDir
  Path directory;

  /** What one path holds, as far as the model knows; a null permission is not checked. */
  record Entry(boolean directory, boolean open, byte[] content, Short permission) {
    static Entry dir() {
      return new Entry(true, false, null, null);
    }

    static Entry openFile() {
      return new Entry(false, true, null, null);
    }

    static Entry file(byte[] content) {
      return new Entry(false, false, content, null);
    }

    Entry withPermission(int mode) {
      return new Entry(directory, open, content, (short) mode);
    }

    /** Whether {@code actual} (read from the cluster) is what this model entry expects. */
    boolean admits(Entry actual) {
      if (directory != actual.directory || open != actual.open) {
        return false;
      }
      if (!directory && !open && !Arrays.equals(content, actual.content)) {
        return false;
      }
      return permission == null || permission.equals(actual.permission);
    }

    @Override
    public String toString() {
      String kind = directory ? "dir" : open ? "open file" : "file of " + content.length + " bytes (hash "
          + Arrays.hashCode(content) + ")";
      return permission == null ? kind : kind + " " + Integer.toOctalString(permission);
    }
  }

  /** The state of one scenario's subtree: relative path to entry. */
  static final class State {
    final TreeMap<String, Entry> entries;

    State(TreeMap<String, Entry> entries) {
      this.entries = entries;
    }

    static State empty() {
      return new State(new TreeMap<>());
    }

    State put(String path, Entry entry) {
      TreeMap<String, Entry> copy = new TreeMap<>(entries);
      copy.put(path, entry);
      return new State(copy);
    }

    State remove(String path) {
      TreeMap<String, Entry> copy = new TreeMap<>(entries);
      copy.keySet().removeIf(p -> p.equals(path) || p.startsWith(path + "/"));
      return new State(copy);
    }

    State move(String from, String to) {
      TreeMap<String, Entry> copy = new TreeMap<>(entries);
      copy.keySet().removeIf(p -> p.equals(from) || p.startsWith(from + "/") || p.equals(to)
          || p.startsWith(to + "/"));
      entries.forEach((p, e) -> {
        if (p.equals(from) || p.startsWith(from + "/")) {
          copy.put(to + p.substring(from.length()), e);
        }
      });
      return new State(copy);
    }

    State update(String path, UnaryOperator<Entry> change) {
      return put(path, change.apply(entries.get(path)));
    }

    boolean admits(State actual) {
      if (!entries.keySet().equals(actual.entries.keySet())) {
        return false;
      }
      return entries.entrySet().stream().allMatch(e -> e.getValue().admits(actual.entries.get(e.getKey())));
    }

    @Override
    public String toString() {
      return entries.toString();
    }
  }

  /** What a scenario step does to the cluster; false when the call answered what it must not (e.g. false). */
  interface Action {
    boolean run(Scenario scenario) throws IOException;
  }

  /**
   * One client call of a scenario and its effect on the model. {@code outcomeUnknownAllowed}: the call is not
   * idempotent, the only kind the namenode may report as "may or may not have taken effect" today.
   */
  record Step(String description, boolean outcomeUnknownAllowed, Action action, UnaryOperator<State> effect) {
  }

  /** A scenario's client, base directory and open streams. */
  static final class Scenario {
    final DistributedFileSystem fs;
    final String base;
    final Map<String, FSDataOutputStream> streams = new HashMap<>();

    Scenario(DistributedFileSystem fs, String base) {
      this.fs = fs;
      this.base = base;
    }

    org.apache.hadoop.fs.Path path(String relative) {
      return new org.apache.hadoop.fs.Path(base + "/" + relative);
    }
  }

  /** How one scenario ended: the states its subtree may be in, and what went wrong on the way. */
  record Result(String base, List<State> admissible, String failure, boolean wrongAnswer) {
  }

  static List<Step> steps(Random random) {
    byte[] first = TestFiles.randomBytes(1 + random.nextInt(200), random.nextLong());
    byte[] second = TestFiles.randomBytes(1 + random.nextInt(200), random.nextLong());
    byte[] third = TestFiles.randomBytes(1 + random.nextInt(200), random.nextLong());
    byte[] fourth = TestFiles.randomBytes(1 + random.nextInt(200), random.nextLong());
    byte[] fifth = TestFiles.randomBytes(1 + random.nextInt(200), random.nextLong());
    byte[] sixth = TestFiles.randomBytes(1 + random.nextInt(200), random.nextLong());
    List<Step> steps = new ArrayList<>();
    steps.add(new Step("mkdirs dir", false, s -> s.fs.mkdirs(s.path("dir")), m -> m.put("dir", Entry.dir())));
    steps.add(create("f", false));
    steps.add(writeAndClose("f", first));
    steps.add(new Step("rename f -> dir (into it)", true, s -> s.fs.rename(s.path("f"), s.path("dir")),
        m -> m.move("f", "dir/f")));
    steps.add(new Step("setPermission dir/f 600", false, s -> {
      s.fs.setPermission(s.path("dir/f"), new FsPermission((short) 0600));
      return true;
    }, m -> m.update("dir/f", e -> e.withPermission(0600))));
    steps.add(create("h", false));
    steps.add(writeAndClose("h", second));
    steps.add(new Step("rename2 h -> dir/h2", true, s -> {
      s.fs.rename(s.path("h"), s.path("dir/h2"), Options.Rename.NONE);
      return true;
    }, m -> m.move("h", "dir/h2")));
    steps.add(create("dir/f", true));
    steps.add(writeAndClose("dir/f", third));
    steps.add(new Step("mkdirs tmp/x/y", false, s -> s.fs.mkdirs(s.path("tmp/x/y")),
        m -> m.put("tmp", Entry.dir()).put("tmp/x", Entry.dir()).put("tmp/x/y", Entry.dir())));
    steps.add(new Step("mkdirs tmp/w/v", false, s -> s.fs.mkdirs(s.path("tmp/w/v")),
        m -> m.put("tmp/w", Entry.dir()).put("tmp/w/v", Entry.dir())));
    steps.add(create("tmp/x/z", false));
    steps.add(writeAndClose("tmp/x/z", fourth));
    steps.add(new Step("rename tmp/x -> dir/x", true, s -> s.fs.rename(s.path("tmp/x"), s.path("dir/x")),
        m -> m.move("tmp/x", "dir/x")));
    steps.add(new Step("delete -r tmp", true, s -> s.fs.delete(s.path("tmp"), true), m -> m.remove("tmp")));
    steps.add(new Step("rename2 dir/x/z -> dir/f OVERWRITE", true, s -> {
      s.fs.rename(s.path("dir/x/z"), s.path("dir/f"), Options.Rename.OVERWRITE);
      return true;
    }, m -> m.move("dir/x/z", "dir/f")));
    // append and concat are at most once (the retry cache answers a re-run), truncate is idempotent
    steps.add(new Step("append " + fifth.length + " bytes to dir/f and close", true, s -> {
      try (FSDataOutputStream out = s.fs.append(s.path("dir/f"))) {
        out.write(fifth);
      }
      return true;
    }, m -> m.update("dir/f", e -> new Entry(false, false, concat(e.content(), fifth), e.permission()))));
    steps.add(create("dir/g", false));
    steps.add(writeAndClose("dir/g", sixth));
    steps.add(new Step("concat dir/g into dir/f", true, s -> {
      s.fs.concat(s.path("dir/f"), new org.apache.hadoop.fs.Path[] {s.path("dir/g")});
      return true;
    }, m -> m.update("dir/f", e -> new Entry(false, false, concat(e.content(), sixth), e.permission()))
        .remove("dir/g")));
    steps.add(new Step("truncate dir/h2 to 0", false, s -> s.fs.truncate(s.path("dir/h2"), 0),
        m -> m.update("dir/h2", e -> new Entry(false, false, new byte[0], e.permission()))));
    steps.add(new Step("delete dir/h2", true, s -> s.fs.delete(s.path("dir/h2"), false), m -> m.remove("dir/h2")));
    steps.add(new Step("setPermission dir 700", false, s -> {
      s.fs.setPermission(s.path("dir"), new FsPermission((short) 0700));
      return true;
    }, m -> m.update("dir", e -> e.withPermission(0700))));
    steps.add(new Step("delete -r dir/x", true, s -> s.fs.delete(s.path("dir/x"), true), m -> m.remove("dir/x")));
    return steps;
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private static Step create(String name, boolean overwrite) {
    return new Step("create " + name + (overwrite ? " (overwrite)" : ""), true, s -> {
      s.streams.put(name, s.fs.create(s.path(name), overwrite, 4096, (short) 1, 1024 * 1024));
      return true;
    }, m -> m.put(name, Entry.openFile()));
  }

  private static Step writeAndClose(String name, byte[] data) {
    return new Step("write " + data.length + " bytes to " + name + " and close", false, s -> {
      try (FSDataOutputStream out = s.streams.remove(name)) {
        out.write(data);
      }
      return true;
    }, m -> m.put(name, Entry.file(data)));
  }

  static Result run(Scenario scenario, List<Step> steps) {
    State state = State.empty();
    for (Step step : steps) {
      boolean answered;
      try {
        answered = step.action().run(scenario);
      } catch (Throwable e) {
        String message = String.valueOf(e.getMessage());
        List<State> admissible = step.outcomeUnknownAllowed() && message.contains(OUTCOME_UNKNOWN)
            ? List.of(state, step.effect().apply(state)) : List.of(state);
        return new Result(scenario.base, admissible, step.description() + " failed: "
            + StormTest.stackTrace(e), false);
      }
      if (!answered) {
        return new Result(scenario.base, List.of(state, step.effect().apply(state)),
            step.description() + " answered false", true);
      }
      state = step.effect().apply(state);
    }
    return new Result(scenario.base, List.of(state), null, false);
  }

  /** The subtree below {@code base} as the cluster holds it. */
  static State actual(FileSystem fs, String base) throws IOException {
    TreeMap<String, Entry> entries = new TreeMap<>();
    collect(fs, new org.apache.hadoop.fs.Path(base), "", entries);
    return new State(entries);
  }

  private static void collect(FileSystem fs, org.apache.hadoop.fs.Path directory, String prefix,
      TreeMap<String, Entry> entries) throws IOException {
    FileStatus[] children;
    try {
      children = fs.listStatus(directory);
    } catch (FileNotFoundException missing) {
      return;
    }
    for (FileStatus child : children) {
      String relative = prefix + child.getPath().getName();
      short permission = child.getPermission().toShort();
      if (child.isDirectory()) {
        entries.put(relative, Entry.dir().withPermission(permission));
        collect(fs, child.getPath(), relative + "/", entries);
      } else if (!((DistributedFileSystem) fs).isFileClosed(child.getPath())) {
        entries.put(relative, Entry.openFile().withPermission(permission));
      } else {
        entries.put(relative, Entry.file(TestFiles.read(fs, child.getPath())).withPermission(permission));
      }
    }
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void everyCallSucceedsAndTakesEffectExactlyOnceDespiteTransientFaults() throws Exception {
    long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
    double probability = Double.parseDouble(System.getProperty(PROBABILITY_PROPERTY, "0.05"));
    int scenarios = Integer.getInteger(SCENARIOS_PROPERTY, 10);
    boolean loseReplies = Boolean.parseBoolean(System.getProperty(LOST_REPLIES_PROPERTY, "true"));
    System.out.println("FaultInjectionTest: seed " + seed + " (-D" + SEED_PROPERTY + "=" + seed + "), fault "
        + "probability " + probability + ", " + THREADS + " threads x " + scenarios + " scenarios, max attempts "
        + MAX_ATTEMPTS + (loseReplies ? "" : ", no lost commit replies"));

    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setInt(NameNodeConfig.TRANSACTION_MAX_ATTEMPTS, MAX_ATTEMPTS);
    DefaultMetricsSystem.setMiniClusterMode(true);
    EmbeddedPostgresServer database = null;
    NameNode nameNode = null;
    DataNode dataNode = null;
    FaultInjectingStore store = null;
    List<DistributedFileSystem> clients = new ArrayList<>();
    try {
      database = EmbeddedPostgresServer.start(directory.resolve("db"), directory.resolve("secrets"), 0);
      database.ownerSettings().forEach(conf::set);
      try (MetadataStore plain = MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf))) {
        NamespaceFormatter.format(plain, conf, false);
      }
      store = new FaultInjectingStore(MetadataStoreProvider.open(
          NameNodeConfig.metadataEngine(conf),
          NameNodeConfig.namenodeMetadataSettings(conf)), seed, probability, loseReplies);
      nameNode = NameNode.start(new Configuration(conf), store);
      Configuration dataNodeConf = MiniCanopyCluster.dataNodeConfigurationFor(nameNode, conf);
      dataNode = DataNodeLauncher.start(dataNodeConf, directory.resolve("dn0"));
      for (int i = 0; i < THREADS; i++) {
        clients.add((DistributedFileSystem) FileSystem.newInstance(java.net.URI.create(nameNode.uri()),
            new Configuration(conf)));
      }
      StormTest.awaitLiveDatanode(clients.get(0));

      store.enable(true);
      long started = System.nanoTime();
      List<Result> results = Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          DistributedFileSystem fs = clients.get(t);
          Random random = new Random(seed * 1_000_003L + t);
          int thread = t;
          workers.add(pool.submit(() -> {
            for (int k = 0; k < scenarios; k++) {
              Scenario scenario = new Scenario(fs, "/fi/t" + thread + "/s" + k);
              results.add(run(scenario, steps(random)));
            }
            return null;
          }));
        }
        for (Future<?> worker : workers) {
          worker.get(180, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
        store.enable(false);
      }
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      System.out.println("FaultInjectionTest: " + results.size() + " scenarios in " + elapsedMs + " ms; injected "
          + store.injectedCounts() + "; namenode metrics " + nameNode.runner().metrics().snapshot());

      List<String> notAsModelled = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (Result result : results) {
        State actual = actual(clients.get(0), result.base());
        if (result.failure() != null) {
          failures.add(result.base() + ": " + result.failure());
        }
        if (result.admissible().stream().noneMatch(state -> state.admits(actual))) {
          notAsModelled.add(result.base() + " holds " + actual + " but the calls' answers admit only "
              + result.admissible() + (result.failure() == null ? "" : " (after: " + firstLine(result.failure())
              + ")"));
        }
        if (result.wrongAnswer()) {
          notAsModelled.add(result.base() + ": " + result.failure() + " (an effect applied twice answers so)");
        }
      }
      List<String> problems;
      try (MetadataStore plain = MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf))) {
        problems = NamespaceInvariants.violations(plain);
      }
      failures.forEach(f -> System.out.println("FaultInjectionTest: client-visible failure: " + f));
      String replay = " (seed " + seed + ")";
      Map<FaultInjectingStore.Fault, Long> injected = store.injectedCounts();
      assertAll("fault injection" + replay,
          () -> assertTrue(injected.entrySet().stream().allMatch(e -> e.getValue() > 0
              || !loseReplies && e.getKey() == FaultInjectingStore.Fault.AFTER_COMMIT),
              "every kind of fault was injected at least once: " + injected),
          () -> assertTrue(problems.isEmpty(), "namespace invariants hold" + replay + ":\n"
              + String.join("\n", problems)),
          () -> assertTrue(notAsModelled.isEmpty(), "every call took effect exactly once if it succeeded, and at "
              + "most once if it failed" + replay + ":\n" + String.join("\n", notAsModelled)),
          () -> assertTrue(failures.isEmpty(), failures.size() + " of " + results.size() + " scenarios saw a "
              + "client-visible failure although the retry budget (" + MAX_ATTEMPTS + " attempts) was not "
              + "exhausted" + replay + ":\n" + String.join("\n", failures.stream().map(FaultInjectionTest::firstLine)
              .toList())));
    } finally {
      for (DistributedFileSystem client : clients) {
        try {
          client.close();
        } catch (IOException ignored) {
          // the namenode may be gone
        }
      }
      if (dataNode != null) {
        dataNode.shutdown();
      }
      if (nameNode != null) {
        nameNode.close(); // closes the store
      } else if (store != null) {
        store.close();
      }
      if (database != null) {
        database.close();
      }
    }
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }
}

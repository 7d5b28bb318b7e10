package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.QueryResult;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Namespace operations racing each other through two namenodes on one database: parallelism of creates in
 * different directories, rename against the delete of the source's ancestor, create under a directory being
 * deleted, and two clients making the same directory or file. After each test the namespace is checked through SQL
 * (every inode reachable from the root, children counts equal to the rows, no name twice in a directory, no lease
 * on a missing file), and the namenodes' per-operation metrics must show exactly the failures the clients saw
 * (all of them expected HDFS answers) and a bounded number of transaction re-runs.
 *
 * <p>That creates in one directory serialize on its row lock and creates in separate directories do not is checked
 * by sampling PostgreSQL's sessions waiting on a lock while they run; the wall times are printed, not asserted (on
 * a shared 2-core machine their ratio is too noisy for a reliable margin).
 *
 * <p>The random choices (which namenode, which rename call, the shape of the moved subtree, start-up jitter) come
 * from one seed, printed at the start; rerun one with {@code -Dcanopy.test.seed=<seed>}.
 */
@Timeout(60)
class ConcurrentNamespaceTest {
  private static final long SEED = Long.getLong("canopy.test.seed", new Random().nextLong());
  private static final int THREADS = 8;
  private static final int FILES_PER_THREAD = 16;
  private static final int WARM_FILES = 8;
  /** Each layout is timed this many times (interleaved); the fastest run of each is reported. */
  private static final int TIMED_RUNS = 3;
  /**
   * Database sessions waiting on a lock, on average while the creates run. Measured: 2 to 4 in one directory (of 8
   * writers, the rest queue on the parent's row), 0.00 in a directory per thread.
   */
  private static final double MIN_WAITERS_ONE_DIRECTORY = 1.0;
  private static final double MAX_WAITERS_MANY_DIRECTORIES = 0.25;
  private static final int RENAME_DELETE_ROUNDS = 30;
  private static final int CREATE_DELETE_ROUNDS = 25;
  private static final int SAME_NAME_ROUNDS = 8;
  /**
   * Transaction re-runs allowed per operation, on average over a test. Re-runs come from hints made stale by the
   * other namenode (every round deletes and recreates the directories, so both namenodes' hints go stale) and from
   * lock waits that end on a changed row. Measured over 15 runs: at most 0.25 per call over a test (the
   * create-delete race), and at most 0.85 for one operation type (rename and rename2 in the rename-delete race,
   * whose paths the other namenode recreates every round). The bounds leave room for a slow machine while catching
   * a retry storm or a livelock (up to 10 attempts per operation).
   */
  private static final double MAX_RETRIES_PER_OPERATION = 0.5;
  private static final double MAX_RETRIES_PER_OPERATION_OF_ONE_TYPE = 2.0;
  private static final FsPermission FILE = FsPermission.getFileDefault();
  private static final FsPermission DIR = FsPermission.getDirDefault();

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(2).build();
  static ClientProtocol[] namenodes;
  static ExecutorService pool;

  /** Failures the clients saw and accepted as HDFS's answer, per operation, during the current test. */
  private final Map<String, LongAdder> expectedFailures = new ConcurrentHashMap<>();
  private Map<String, OperationMetrics.Snapshot> metricsBefore;

  @BeforeAll
  static void clientsAndPool() throws IOException {
    System.out.println("ConcurrentNamespaceTest seed=" + SEED + " (rerun with -Dcanopy.test.seed=" + SEED + ")");
    namenodes = new ClientProtocol[] {CLUSTER.fileSystem(0).getClient().getNamenode(),
        CLUSTER.fileSystem(1).getClient().getNamenode()};
    pool = Executors.newFixedThreadPool(THREADS + 1);
  }

  @AfterAll
  static void stopPool() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  @BeforeEach
  void recordMetrics() {
    metricsBefore = metrics();
  }

  /** The namenodes saw no failure the clients did not expect, and re-ran transactions a bounded number of times. */
  @AfterEach
  void checkMetricsAndNamespace() throws IOException {
    Map<String, OperationMetrics.Snapshot> after = metrics();
    long operations = 0;
    long retries = 0;
    Set<String> names = new TreeSet<>(after.keySet());
    names.addAll(expectedFailures.keySet());
    StringBuilder report = new StringBuilder();
    for (String name : names) {
      OperationMetrics.Snapshot delta = after.getOrDefault(name, OperationMetrics.Snapshot.ZERO)
          .minus(metricsBefore.getOrDefault(name, OperationMetrics.Snapshot.ZERO));
      if (delta.equals(OperationMetrics.Snapshot.ZERO)) {
        continue;
      }
      long expected = expectedFailures.containsKey(name) ? expectedFailures.get(name).sum() : 0;
      report.append(String.format(" %s[ops=%d retries=%d failures=%d expectedFailures=%d]", name,
          delta.operations(), delta.retries(), delta.failures(), expected));
      assertEquals(expected, delta.failures(), name + ": every failure on the namenodes is one a client saw and "
          + "expected (seed " + SEED + ")");
      long calls = delta.operations() + delta.failures();
      assertTrue(delta.retries() <= MAX_RETRIES_PER_OPERATION_OF_ONE_TYPE * calls + 2, name + ": " + delta.retries()
          + " re-runs for " + calls + " calls (seed " + SEED + ")");
      operations += calls;
      retries += delta.retries();
    }
    System.out.printf("metrics: %d re-runs for %d calls (%.2f per call):%s%n", retries, operations,
        (double) retries / Math.max(1, operations), report);
    assertTrue(retries <= MAX_RETRIES_PER_OPERATION * operations, retries + " re-runs for " + operations
        + " operations (seed " + SEED + "):" + report);
    assertNamespaceConsistent("after the test");
  }

  // ---- 1. parallel creates: one directory against one directory per thread ----

  @Test
  void createsInDifferentDirectoriesRunInParallel() throws Exception {
    // warm-up: JIT, connection pools, hints; not timed
    createFiles("/warm", true, WARM_FILES);
    createFiles("/warm", false, WARM_FILES);
    List<CreateRun> oneDir = new ArrayList<>();
    List<CreateRun> manyDirs = new ArrayList<>();
    for (int run = 0; run < TIMED_RUNS; run++) {
      oneDir.add(createFiles("/timed" + run, true, FILES_PER_THREAD));
      manyDirs.add(createFiles("/timed" + run, false, FILES_PER_THREAD));
    }
    OperationMetrics.Snapshot creates = metrics().get("create").minus(metricsBefore.getOrDefault("create",
        OperationMetrics.Snapshot.ZERO));
    assertEquals(0, creates.retries(), "creates in one directory wait for its lock; none is aborted and re-run");
    long bestOne = best(oneDir, CreateRun::createNanos);
    long bestMany = best(manyDirs, CreateRun::createNanos);
    double waitingOne = meanWaiters(oneDir);
    double waitingMany = meanWaiters(manyDirs);
    System.out.printf("%d threads x %d files; per run: ms until all created / ms until all closed / mean sessions "
        + "waiting on a lock while creating%n  one directory:        %s%n  a directory per thread: %s%n"
        + "  best creates %d vs %d ms (ratio %.2f); best with closes %d vs %d ms (ratio %.2f); waiting %.2f vs "
        + "%.2f%n", THREADS, FILES_PER_THREAD, oneDir, manyDirs, bestOne / 1_000_000, bestMany / 1_000_000,
        (double) bestMany / bestOne, best(oneDir, CreateRun::totalNanos) / 1_000_000,
        best(manyDirs, CreateRun::totalNanos) / 1_000_000,
        (double) best(manyDirs, CreateRun::totalNanos) / best(oneDir, CreateRun::totalNanos), waitingOne,
        waitingMany);
    assertTrue(waitingOne >= MIN_WAITERS_ONE_DIRECTORY, "creates in one directory queue on its lock: "
        + waitingOne + " sessions waiting on average");
    assertTrue(waitingMany <= MAX_WAITERS_MANY_DIRECTORIES, "creates in separate directories do not wait for "
        + "each other: " + waitingMany + " sessions waiting on average");
    // No assertion on the wall times: on this 2-core machine, shared with other builds, the best of three runs in
    // a directory per thread took 0.41 to 0.91 of the time in one directory (fsync is fast here, so the serialized
    // part is short against the CPU both layouts need); the lock waits above are the reliable signal.
  }

  /** One timed run: wall times until every file is created and until every file is closed; lock-wait samples. */
  private record CreateRun(long createNanos, long totalNanos, int samples, long waiters) {
    double meanWaiters() {
      return samples == 0 ? 0 : (double) waiters / samples;
    }

    @Override
    public String toString() {
      return String.format("%d/%d/%.1f", createNanos / 1_000_000, totalNanos / 1_000_000, meanWaiters());
    }
  }

  private static long best(List<CreateRun> runs, ToLongFunction<CreateRun> time) {
    return runs.stream().mapToLong(time).min().getAsLong();
  }

  private static double meanWaiters(List<CreateRun> runs) {
    return (double) runs.stream().mapToLong(CreateRun::waiters).sum()
        / Math.max(1, runs.stream().mapToInt(CreateRun::samples).sum());
  }

  /**
   * {@link #THREADS} writers each create {@code files} empty files, then close them, in {@code base}/shared or in
   * {@code base}/own/t&lt;i&gt;; checks that all exist. While they create, the database sessions waiting on a lock
   * are counted every millisecond or so.
   */
  private CreateRun createFiles(String base, boolean shared, int files) throws Exception {
    String root = base + (shared ? "/shared" : "/own");
    for (int t = 0; t < THREADS; t++) {
      String dir = shared ? root : root + "/t" + t;
      assertTrue(namenodes[t % 2].mkdirs(dir, DIR, true));
    }
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch created = new CountDownLatch(THREADS);
    long[] createdAt = new long[THREADS];
    List<Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      ClientProtocol namenode = namenodes[t % 2];
      String holder = "writer-" + base.substring(1) + "-" + t + (shared ? "s" : "o");
      String dir = shared ? root : root + "/t" + t;
      writers.add(pool.submit(() -> {
        start.await();
        long[] ids = new long[files];
        try {
          for (int f = 0; f < files; f++) {
            ids[f] = create(namenode, dir + "/t" + thread + "-f" + f, holder, false).getFileId();
          }
        } finally {
          createdAt[thread] = System.nanoTime();
          created.countDown();
        }
        for (int f = 0; f < files; f++) {
          String path = dir + "/t" + thread + "-f" + f;
          assertTrue(namenode.complete(path, holder, null, ids[f]), "complete " + path);
        }
        return null;
      }));
    }
    Future<long[]> sampler = pool.submit(() -> {
      start.await();
      long samples = 0;
      long waiters = 0;
      while (!created.await(1, TimeUnit.MILLISECONDS)) {
        waiters += Long.parseLong(sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"));
        samples++;
      }
      return new long[] {samples, waiters};
    });
    long begin = System.nanoTime();
    start.countDown();
    for (Future<?> writer : writers) {
      writer.get(50, TimeUnit.SECONDS);
    }
    long elapsed = System.nanoTime() - begin;
    long creates = Arrays.stream(createdAt).max().getAsLong() - begin;
    long[] waits = sampler.get(10, TimeUnit.SECONDS);
    int perDirectory = shared ? THREADS * files : files;
    for (int t = 0; t < (shared ? 1 : THREADS); t++) {
      String dir = shared ? root : root + "/t" + t;
      assertEquals(perDirectory, namenodes[t % 2].getListing(dir, new byte[0], false).getPartialListing().length,
          "files in " + dir);
      assertEquals(String.valueOf(perDirectory), childrenCount(dir), "children count of " + dir);
    }
    return new CreateRun(creates, elapsed, (int) waits[0], waits[1]);
  }

  // ---- 2. rename against the delete of the source's parent ----

  /**
   * Each round: /r/a holds x (a file, or a directory x/d/f) and a sibling directory, /r/b holds y (likewise). While
   * /r/a is deleted recursively, x moves out of it to /r/b/x and y moves into it to /r/a/y (rename or rename2, from
   * either namenode, with seeded start-up jitter). The delete always succeeds; x ends at /r/b/x exactly when its
   * move succeeded; y is gone exactly when its move succeeded (it went with /r/a), else still at /r/b/y.
   */
  @Test
  void renameRacingDeleteOfTheSourceParentLeavesNoOrphan() throws Exception {
    Random random = new Random(SEED ^ 2);
    int movedOut = 0;
    int movedIn = 0;
    for (int round = 0; round < RENAME_DELETE_ROUNDS; round++) {
      boolean xIsDirectory = random.nextBoolean();
      boolean yIsDirectory = random.nextBoolean();
      boolean outWithRename2 = random.nextBoolean();
      boolean inWithRename2 = random.nextBoolean();
      ClientProtocol outMover = namenodes[random.nextInt(2)];
      ClientProtocol inMover = namenodes[random.nextInt(2)];
      ClientProtocol deleter = namenodes[random.nextInt(2)];
      int outDelayMicros = random.nextInt(3000);
      int inDelayMicros = random.nextInt(3000);
      int deleterDelayMicros = random.nextInt(3000);
      String context = "round " + round + " (seed " + SEED + ", x is a " + (xIsDirectory ? "directory" : "file")
          + " moved with " + (outWithRename2 ? "rename2" : "rename") + ", y is a "
          + (yIsDirectory ? "directory" : "file") + " moved with " + (inWithRename2 ? "rename2" : "rename") + ")";
      assertTrue(deleter.mkdirs("/r/a/sibling", DIR, true));
      assertTrue(inMover.mkdirs("/r/b", DIR, true));
      makeEntry(outMover, "/r/a/x", xIsDirectory);
      makeEntry(inMover, "/r/b/y", yIsDirectory);
      CountDownLatch start = new CountDownLatch(1);
      Future<Boolean> out = pool.submit(() -> {
        start.await();
        pause(outDelayMicros);
        return move(outMover, outWithRename2, "/r/a/x", "/r/b/x");
      });
      Future<Boolean> in = pool.submit(() -> {
        start.await();
        pause(inDelayMicros);
        return move(inMover, inWithRename2, "/r/b/y", "/r/a/y");
      });
      Future<Boolean> delete = pool.submit(() -> {
        start.await();
        pause(deleterDelayMicros);
        return deleter.delete("/r/a", true);
      });
      start.countDown();
      boolean xMoved = out.get(30, TimeUnit.SECONDS);
      boolean yMoved = in.get(30, TimeUnit.SECONDS);
      assertTrue(delete.get(30, TimeUnit.SECONDS), context + ": the only delete of /r/a finds it");
      movedOut += xMoved ? 1 : 0;
      movedIn += yMoved ? 1 : 0;
      assertNull(namenodes[0].getFileInfo("/r/a"), context + ": /r/a is gone");
      Set<String> expectedTree = new TreeSet<>(List.of("/r/b"));
      if (xMoved) {
        expectedTree.addAll(entryPaths("/r/b/x", xIsDirectory));
      }
      if (!yMoved) {
        expectedTree.addAll(entryPaths("/r/b/y", yIsDirectory));
      }
      Set<String> tree = new TreeSet<>();
      listTree(namenodes[random.nextInt(2)], "/r", tree);
      assertEquals(expectedTree, tree, context + ": x moved " + xMoved + ", y moved " + yMoved);
      assertEquals(String.valueOf((xMoved ? 1 : 0) + (yMoved ? 0 : 1)), childrenCount("/r/b"), context);
      assertEquals("1", childrenCount("/r"), context + ": /r holds only b");
      assertNamespaceConsistent(context);
      assertTrue(namenodes[random.nextInt(2)].delete("/r/b", true));
    }
    System.out.println("rename vs delete: x moved out of /r/a in " + movedOut + " and y into it in " + movedIn
        + " of " + RENAME_DELETE_ROUNDS + " rounds");
  }

  /** A file, or a directory holding d/f. */
  private static void makeEntry(ClientProtocol namenode, String path, boolean directory) throws IOException {
    if (directory) {
      assertTrue(namenode.mkdirs(path + "/d", DIR, true));
      createClosed(namenode, path + "/d/f", "setup");
    } else {
      createClosed(namenode, path, "setup");
    }
  }

  private static List<String> entryPaths(String path, boolean directory) {
    return directory ? List.of(path, path + "/d", path + "/d/f") : List.of(path);
  }

  /** True when the move happened; false when the namenode refused it because the source or parent is gone. */
  private boolean move(ClientProtocol namenode, boolean rename2, String source, String destination)
      throws IOException {
    if (!rename2) {
      return namenode.rename(source, destination); // false for a missing source or destination parent
    }
    try {
      namenode.rename2(source, destination, Options.Rename.NONE);
      return true;
    } catch (IOException e) {
      IOException unwrapped = unwrap(e);
      if (unwrapped instanceof FileNotFoundException) {
        expected("rename2");
        return false;
      }
      throw unwrapped;
    }
  }

  // ---- 3. create under a directory being deleted ----

  /**
   * The creators racing the delete of /c/dir: in /c/dir/sub (the case of the spec) without and with createParent,
   * directly in /c/dir (its parent is the deleted directory itself), and below a missing directory of /c/dir with
   * createParent (it locks /c/dir and adds a child to it, which the delete must see once it holds /c/dir).
   */
  private static final String[] RACING_FILES = {"/c/dir/sub/f0", "/c/dir/sub/f1", "/c/dir/sub/f2", "/c/dir/sub/f3",
      "/c/dir/f4", "/c/dir/new5/f5"};
  private static final boolean[] CREATES_PARENTS = {false, false, true, true, false, true};

  @Test
  void createUnderADirectoryBeingDeletedLeavesNoOrphan() throws Exception {
    Random random = new Random(SEED ^ 3);
    int creators = RACING_FILES.length;
    // per creator: file created before the delete (and removed by it), after it (it survives), refused for want
    // of a parent
    int[] before = new int[creators];
    int[] after = new int[creators];
    int[] refused = new int[creators];
    for (int round = 0; round < CREATE_DELETE_ROUNDS; round++) {
      String context = "round " + round + " (seed " + SEED + ")";
      ClientProtocol setup = namenodes[random.nextInt(2)];
      assertTrue(setup.mkdirs("/c/dir/sub", DIR, true));
      createClosed(setup, "/c/dir/sub/old", "setup");
      assertTrue(setup.mkdirs("/c/dir/other", DIR, true));
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> creates = new ArrayList<>();
      for (int c = 0; c < creators; c++) {
        boolean createParent = CREATES_PARENTS[c];
        ClientProtocol namenode = namenodes[random.nextInt(2)];
        int delayMicros = random.nextInt(4000);
        String path = RACING_FILES[c];
        String holder = "creator-" + c;
        creates.add(pool.submit(() -> {
          start.await();
          pause(delayMicros);
          try {
            create(namenode, path, holder, createParent);
            return true;
          } catch (IOException e) {
            IOException unwrapped = unwrap(e);
            if (!createParent && unwrapped instanceof FileNotFoundException) {
              expected("create");
              return false;
            }
            throw unwrapped;
          }
        }));
      }
      ClientProtocol deleter = namenodes[random.nextInt(2)];
      int deleterDelayMicros = random.nextInt(3000);
      Future<Boolean> delete = pool.submit(() -> {
        start.await();
        pause(deleterDelayMicros);
        return deleter.delete("/c/dir", true);
      });
      start.countDown();
      assertTrue(delete.get(30, TimeUnit.SECONDS), context + ": the only delete of /c/dir finds it");
      Set<String> present = new TreeSet<>();
      Set<String> recreatedParents = new HashSet<>();
      for (int c = 0; c < creators; c++) {
        String path = RACING_FILES[c];
        boolean succeeded = creates.get(c).get(30, TimeUnit.SECONDS);
        boolean exists = namenodes[c % 2].getFileInfo(path) != null;
        assertTrue(succeeded || !CREATES_PARENTS[c], context + ": " + path + " is created with its parents, so "
            + "it always succeeds");
        assertTrue(succeeded || !exists, context + ": " + path + " was refused but exists");
        if (exists) {
          after[c]++;
          present.add(path);
          if (CREATES_PARENTS[c]) {
            for (String parent = parentOf(path); !parent.equals("/c"); parent = parentOf(parent)) {
              recreatedParents.add(parent);
            }
          }
        } else if (succeeded) {
          before[c]++;
        } else {
          refused[c]++;
        }
      }
      // A file created without createParent outlives the delete only in a directory that a create with
      // createParent made again after it; otherwise it went with the directory.
      for (int c = 0; c < creators; c++) {
        if (!CREATES_PARENTS[c] && present.contains(RACING_FILES[c])) {
          assertTrue(recreatedParents.contains(parentOf(RACING_FILES[c])), context + ": " + RACING_FILES[c]
              + " outlived the delete of its directory, which no create recreated (present: " + present + ")");
        }
      }
      // What is left under /c is exactly the surviving files and their parents: the delete removed everything
      // that existed when it ran (old, other, sub, files created before it).
      Set<String> expectedTree = new TreeSet<>(present);
      present.forEach(path -> {
        for (String parent = parentOf(path); !parent.equals("/c"); parent = parentOf(parent)) {
          expectedTree.add(parent);
        }
      });
      Set<String> tree = new TreeSet<>();
      listTree(namenodes[random.nextInt(2)], "/c", tree);
      assertEquals(expectedTree, tree, context + ": the namespace under /c after the race");
      assertNamespaceConsistent(context);
      if (!present.isEmpty()) {
        assertTrue(namenodes[random.nextInt(2)].delete("/c/dir", true));
      }
    }
    System.out.println("create vs delete, per creator " + Arrays.toString(RACING_FILES) + " (createParent "
        + Arrays.toString(CREATES_PARENTS) + "): created before the delete " + Arrays.toString(before)
        + ", after it " + Arrays.toString(after) + ", refused (no parent) " + Arrays.toString(refused));
  }

  private static String parentOf(String path) {
    return path.substring(0, path.lastIndexOf('/'));
  }

  /** Adds the path of every inode below {@code dir} to {@code paths}. */
  private static void listTree(ClientProtocol namenode, String dir, Set<String> paths) throws IOException {
    for (HdfsFileStatus status : namenode.getListing(dir, new byte[0], false).getPartialListing()) {
      String path = dir + "/" + status.getLocalName();
      paths.add(path);
      if (status.isDirectory()) {
        listTree(namenode, path, paths);
      }
    }
  }

  // ---- 4. the same name from two clients ----

  /**
   * What {@link ConcurrentCreateTest} leaves out: mkdirs without createParent, two mkdirs -p sharing a missing
   * chain, a file race where the winner keeps its file open (so the loser must get AlreadyBeingCreatedException,
   * not FileAlreadyExistsException), and mkdirs against create of one name; each name ends as exactly one row.
   */
  @Test
  void twoClientsMakeTheSameNamesOnce() throws Exception {
    Random random = new Random(SEED ^ 4);
    int dirWins = 0;
    for (int round = 0; round < SAME_NAME_ROUNDS; round++) {
      String base = "/same/r" + round;
      String context = "round " + round + " (seed " + SEED + ")";
      assertTrue(namenodes[0].mkdirs(base, DIR, true));
      assertTrue(namenodes[1].getFileInfo(base) != null); // both namenodes know the parent
      boolean swap = random.nextBoolean();
      ClientProtocol one = namenodes[swap ? 1 : 0];
      ClientProtocol two = namenodes[swap ? 0 : 1];
      String holderOne = "same-one-" + round;
      String holderTwo = "same-two-" + round;

      // (a) mkdirs without parents of one new directory: HDFS answers true to both, one row exists
      List<Boolean> made = race(() -> one.mkdirs(base + "/d", DIR, false), () -> two.mkdirs(base + "/d", DIR, false));
      assertEquals(List.of(true, true), made, context);
      assertEquals(1, rowsNamed(base, "d"), context + ": one row for " + base + "/d");

      // (b) mkdirs with parents of two leaves below the same missing chain: p and q made once
      made = race(() -> one.mkdirs(base + "/p/q/r1", DIR, true), () -> two.mkdirs(base + "/p/q/r2", DIR, true));
      assertEquals(List.of(true, true), made, context);
      assertEquals(1, rowsNamed(base, "p"), context + ": one row for " + base + "/p");
      assertEquals(1, rowsNamed(base + "/p", "q"), context + ": one row for " + base + "/p/q");
      assertEquals("2", childrenCount(base + "/p/q"), context + ": q holds r1 and r2");

      // (c) one file created by two writers, neither closing: one wins, the other meets the winner's open file
      List<Boolean> created = race(() -> createOrLose(one, base + "/f", holderOne, AlreadyBeingCreatedException.class),
          () -> createOrLose(two, base + "/f", holderTwo, AlreadyBeingCreatedException.class));
      assertEquals(1, created.stream().filter(won -> won).count(), context + ": exactly one create of /f wins");
      assertEquals(1, rowsNamed(base, "f"), context + ": one row for " + base + "/f");
      HdfsFileStatus file = namenodes[0].getFileInfo(base + "/f");
      assertTrue(one.complete(base + "/f", created.get(0) ? holderOne : holderTwo, null, file.getFileId()),
          context + ": the winner closes its file");

      // (d) a directory and a file of the same name: exactly one kind wins
      List<Boolean> outcome = race(() -> mkdirsOrLose(one, base + "/x"),
          () -> createOrLose(two, base + "/x", holderTwo, FileAlreadyExistsException.class));
      assertEquals(1, outcome.stream().filter(won -> won).count(), context + ": exactly one of mkdirs and create "
          + "of /x wins, got " + outcome);
      assertEquals(1, rowsNamed(base, "x"), context + ": one row for " + base + "/x");
      assertEquals(outcome.get(0), namenodes[1].getFileInfo(base + "/x").isDirectory(), context);
      dirWins += outcome.get(0) ? 1 : 0;
      assertEquals("4", childrenCount(base), context + ": d, p, f and x");
    }
    System.out.println("same name: the directory won " + dirWins + " of " + SAME_NAME_ROUNDS + " mkdirs/create races");
  }

  // ---- helpers ----

  /** Runs both calls at once (released together) and returns their results in order. */
  private <T> List<T> race(Callable<T> first, Callable<T> second) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    Future<T> one = pool.submit(() -> {
      start.await();
      return first.call();
    });
    Future<T> two = pool.submit(() -> {
      start.await();
      return second.call();
    });
    start.countDown();
    return List.of(one.get(30, TimeUnit.SECONDS), two.get(30, TimeUnit.SECONDS));
  }

  /** True when this writer created the file; false when it lost with {@code expected} (and only that). */
  private boolean createOrLose(ClientProtocol namenode, String path, String holder,
      Class<? extends IOException> expected) throws IOException {
    try {
      create(namenode, path, holder, false);
      return true;
    } catch (IOException e) {
      IOException unwrapped = unwrap(e);
      if (expected.isInstance(unwrapped)) {
        expected("create");
        return false;
      }
      throw unwrapped;
    }
  }

  /** True when mkdirs made (or found) the directory; false when a file of that name exists. */
  private boolean mkdirsOrLose(ClientProtocol namenode, String path) throws IOException {
    try {
      assertTrue(namenode.mkdirs(path, DIR, false));
      return true;
    } catch (IOException e) {
      IOException unwrapped = unwrap(e);
      if (unwrapped instanceof FileAlreadyExistsException) { // HDFS: "Path is not a directory"
        expected("mkdirs");
        return false;
      }
      throw unwrapped;
    }
  }

  private void expected(String operation) {
    expectedFailures.computeIfAbsent(operation, o -> new LongAdder()).increment();
  }

  private static HdfsFileStatus create(ClientProtocol namenode, String path, String holder, boolean createParent)
      throws IOException {
    HdfsFileStatus status = namenode.create(path, FILE, holder, new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
        createParent, (short) 1, 1024, CryptoProtocolVersion.supported(), null, null);
    assertNotNull(status, "create " + path);
    return status;
  }

  private static void createClosed(ClientProtocol namenode, String path, String holder) throws IOException {
    HdfsFileStatus status = create(namenode, path, holder, true);
    assertTrue(namenode.complete(path, holder, null, status.getFileId()), "complete " + path);
  }

  private static IOException unwrap(IOException e) {
    return e instanceof RemoteException remote ? remote.unwrapRemoteException(FileNotFoundException.class,
        FileAlreadyExistsException.class, AlreadyBeingCreatedException.class) : e;
  }

  private static void pause(int micros) throws InterruptedException {
    if (micros > 0) {
      TimeUnit.MICROSECONDS.sleep(micros);
    }
  }

  private static Map<String, OperationMetrics.Snapshot> metrics() {
    Map<String, OperationMetrics.Snapshot> total = new TreeMap<>();
    for (int i = 0; i < 2; i++) {
      CLUSTER.cluster().nameNode(i).runner().metrics().snapshot().forEach((name, snapshot) ->
          total.merge(name, snapshot, OperationMetrics.Snapshot::plus));
    }
    return total;
  }

  private static long fileId(String path) throws IOException {
    HdfsFileStatus status = namenodes[0].getFileInfo(path);
    assertNotNull(status, path + " exists");
    return status.getFileId();
  }

  private static String childrenCount(String path) throws IOException {
    return sql("SELECT children_count FROM inodes WHERE id = " + fileId(path));
  }

  /** Rows named {@code name} under the directory {@code parent}, in any partition. */
  private static int rowsNamed(String parent, String name) throws IOException {
    return Integer.parseInt(sql("SELECT count(*) FROM inodes WHERE parent_id = " + fileId(parent) + " AND name = '"
        + name + "'"));
  }

  private static String sql(String query) throws IOException {
    QueryResult result = StoreQueries.query(CLUSTER.store(), query, 2);
    assertEquals(1, result.rows().size(), query);
    return result.rows().get(0).get(0);
  }

  private static List<List<String>> sqlRows(String query) throws IOException {
    return StoreQueries.query(CLUSTER.store(), query, 20).rows();
  }

  /**
   * Every inode is reachable from the root; every directory's children_count equals its children rows; no name
   * appears twice in a directory; no inode sits under a file; no lease path names a missing inode.
   */
  private static void assertNamespaceConsistent(String context) throws IOException {
    String total = sqlRows("SELECT count(*) FROM inodes").get(0).get(0);
    String reachable = sqlRows("WITH RECURSIVE tree(id) AS (SELECT id FROM inodes WHERE id = 16385 "
        + "UNION SELECT i.id FROM inodes i JOIN tree t ON i.parent_id = t.id AND i.id <> 16385) "
        + "SELECT count(*) FROM tree").get(0).get(0);
    assertEquals(total, reachable, "every inode is reachable from the root: no orphan (" + context + ", seed " + SEED
        + ")");
    assertEquals(List.of(), sqlRows("SELECT p.id, p.name, p.children_count, (SELECT count(*) FROM inodes c "
        + "WHERE c.parent_id = p.id) FROM inodes p WHERE p.is_dir AND p.children_count <> (SELECT count(*) "
        + "FROM inodes c WHERE c.parent_id = p.id)"), "directories whose children_count differs from their rows "
        + "(" + context + ", seed " + SEED + ")");
    assertEquals(List.of(), sqlRows("SELECT parent_id, name FROM inodes GROUP BY parent_id, name "
        + "HAVING count(*) > 1"), "no name twice in one directory (" + context + ", seed " + SEED + ")");
    assertEquals(List.of(), sqlRows("SELECT c.id, c.name FROM inodes c JOIN inodes p ON c.parent_id = p.id "
        + "WHERE NOT p.is_dir"), "no inode under a file (" + context + ", seed " + SEED + ")");
    assertEquals(List.of(), sqlRows("SELECT holder, inode_id FROM lease_paths l WHERE NOT EXISTS "
        + "(SELECT 1 FROM inodes i WHERE i.id = l.inode_id)"), "no lease on a missing file (" + context + ", seed "
        + SEED + ")");
  }
}

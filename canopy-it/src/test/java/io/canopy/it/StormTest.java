package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.canopy.metadata.MetadataStore;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storm of random, colliding namespace operations from 16 threads through two namenodes on a small shared tree:
 * every client-visible error must be one HDFS documents for the situation (a missing path, an existing name...),
 * never a deadlock, lock timeout, exhausted retry budget or database error; afterwards the metadata tables must
 * hold a sound tree (see {@link NamespaceInvariants}).
 *
 * <p>Replay with {@code -Dcanopy.storm.seed=<seed printed by a run>} (the operation sequence of every thread is a
 * function of the seed; the interleaving is not). Each thread runs {@code -Dcanopy.storm.ops} operations (default
 * 2000: the storm of 16 x 2000).
 */
class StormTest {
  static final String SEED_PROPERTY = "canopy.storm.seed";
  static final String OPS_PROPERTY = "canopy.storm.ops";
  static final int DEFAULT_OPS = 2000;
  static final int THREADS = 16;
  /** Threads share clients (so one lease holder has several files in flight), spread over both namenodes. */
  static final int CLIENTS = 8;
  static final String ROOT = "/storm";
  static final String[][] POOLS = {
      {"d0", "d1", "d2", "d3"},
      {"s0", "s1", "s2", "s3", "a", "b"},
      {"a", "b", "c", "s0"},
  };

  /** The storm's root is never moved or deleted: usage is tracked there until the end, the others may go. */
  static final List<String> QUOTA_DIRECTORIES = List.of(ROOT, ROOT + "/d0", ROOT + "/d1", ROOT + "/d2/s0",
      ROOT + "/d3/s1");

  /** The remote exceptions HDFS documents for the races a storm provokes. */
  static final Set<String> EXPECTED_CLASSES = Set.of(
      FileNotFoundException.class.getName(),
      org.apache.hadoop.fs.FileAlreadyExistsException.class.getName(),
      org.apache.hadoop.fs.ParentNotDirectoryException.class.getName(),
      org.apache.hadoop.fs.PathIsNotEmptyDirectoryException.class.getName(),
      org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException.class.getName(),
      org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException.class.getName());
  /**
   * HDFS's answer to a call other than create, mkdirs and a rename's destination on a path under a file: an
   * AccessControlException with ParentNotDirectoryException's message (FSDirectory.resolvePath).
   */
  static final String UNDER_A_FILE = "(is not a directory)";
  /** Plain IOExceptions rename2 answers for a refused move (HDFS's messages). */
  static final List<String> EXPECTED_IO_MESSAGES = List.of("is a directory or file under source",
      "must both be directories", "destination directory is not empty", "cannot be the root");
  /** Never acceptable, whatever exception carries it. */
  static final List<String> FORBIDDEN_TEXT = List.of("deadlock", "lock timeout", "did not complete after",
      "SQLSTATE", "PSQLException", "may or may not have taken effect", "invariant", "StoreException");

  @TempDir
  Path directory;

  private final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
  private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
  /** A store of the cluster's database, for looking at rows during and after the storm. */
  private MetadataStore inspector;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void randomCollidingOperationsLeaveASoundNamespace() throws Exception {
    long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
    int ops = Integer.getInteger(OPS_PROPERTY, DEFAULT_OPS);
    System.out.println("StormTest: seed " + seed + " (-D" + SEED_PROPERTY + "=" + seed + "), " + THREADS
        + " threads x " + ops + " operations");
    Configuration conf = MiniCanopyCluster.testConfiguration();
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 2, 1);
        MetadataStore rows = cluster.openStore()) {
      List<DistributedFileSystem> clients = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        clients.add(cluster.fileSystem(i % 2));
      }
      inspector = rows;
      // The datanode reports to namenode 0; namenode 1 learns of it from the database when its view refreshes.
      for (int n = 0; n < 2; n++) {
        awaitLiveDatanode(clients.get(n));
      }
      for (String top : POOLS[0]) {
        for (String sub : POOLS[1]) {
          if (sub.startsWith("s")) {
            clients.get(0).mkdirs(path(ROOT + "/" + top + "/" + sub));
          }
        }
      }
      // Quotas far above what the storm uses: usage is kept under every race (moves between quota directories,
      // quota directories moved and deleted) and the invariants compare it with a recount afterwards.
      for (String quoted : QUOTA_DIRECTORIES) {
        clients.get(0).setQuota(path(quoted), 1_000_000, 1L << 50);
      }
      long started = System.nanoTime();
      // A storm that has not finished by then hangs: dump the threads rather than wait for the JUnit timeout.
      long budgetSeconds = 60 + ops / 20;
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> workers = new ArrayList<>();
      try {
        for (int t = 0; t < THREADS; t++) {
          DistributedFileSystem fs = clients.get(t % CLIENTS);
          Random random = new Random(seed * 1_000_003L + t);
          int thread = t;
          workers.add(pool.submit(() -> {
            start.await();
            for (int i = 0; i < ops; i++) {
              operate(fs, random, thread, i);
            }
            return null;
          }));
        }
        start.countDown();
        long deadline = started + TimeUnit.SECONDS.toNanos(budgetSeconds);
        for (Future<?> worker : workers) {
          long left = deadline - System.nanoTime();
          try {
            worker.get(Math.max(1, left), TimeUnit.NANOSECONDS);
          } catch (java.util.concurrent.TimeoutException e) {
            System.out.println(threadDump());
            fail("the storm (seed " + seed + ") did not finish within " + budgetSeconds + " s: threads dumped");
          }
        }
      } finally {
        pool.shutdownNow();
      }
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      System.out.println("StormTest: " + THREADS * ops + " operations in " + elapsedMs + " ms; outcomes "
          + new TreeMap<>(outcomes));

      for (int n = 0; n < 2; n++) {
        Map<String, OperationMetrics.Snapshot> metrics = cluster.nameNode(n).runner().metrics().snapshot();
        System.out.println("StormTest: namenode " + n + " transaction metrics " + metrics);
      }
      List<String> failures = new ArrayList<>();
      if (!unexpected.isEmpty()) {
        List<String> sample = new ArrayList<>(unexpected).subList(0, Math.min(5, unexpected.size()));
        failures.add(unexpected.size() + " unexpected failures in the storm, first ones:\n"
            + String.join("\n", sample));
      }
      List<String> problems = NamespaceInvariants.violations(rows);
      if (!problems.isEmpty()) {
        failures.add("namespace invariants violated after the storm:\n" + String.join("\n", problems));
      }
      long inodes = NamespaceInvariants.inodes(rows).size();
      System.out.println("StormTest: checked the invariants on " + inodes + " inodes, "
          + StoreQueries.query(rows, "SELECT count(*) FROM directory_quotas", 1).rows().get(0).get(0)
          + " directories with a quota left");
      // both namenodes serve exactly the tree the tables hold
      for (int n = 0; n < 2; n++) {
        long listed = countTree(clients.get(n), path("/"));
        if (listed != inodes - 1) {
          failures.add("namenode " + n + " lists " + listed + " entries below the root, the tables hold "
              + (inodes - 1));
        }
      }
      if (!failures.isEmpty()) {
        fail("StormTest seed " + seed + ":\n" + String.join("\n\n", failures));
      }
      assertRetriesBounded(cluster, seed);
    }
  }

  /** Operations of the datanode protocol: nothing a client does can make them fail legitimately. */
  static final Set<String> DATANODE_OPERATIONS = Set.of("registerDatanode", "sendHeartbeat", "storageReplicas",
      "applyReplicaReports", "blockLookup", "invalidateUnknown");

  /**
   * Retries stayed bounded. The runner's counters are totals per operation type and count HDFS's own refusals as
   * failures, so "no operation failed after max attempts" is checked where it can be: clients never saw an
   * exhausted budget (a FORBIDDEN_TEXT), the datanode-protocol operations (whose failures nobody else would see)
   * never failed, and contention cost less than one retry per two transactions on average.
   */
  private static void assertRetriesBounded(MiniCanopyCluster cluster, long seed) {
    long retries = 0;
    long runs = 0;
    List<String> failedDatanodeOperations = new ArrayList<>();
    for (int n = 0; n < 2; n++) {
      for (Map.Entry<String, OperationMetrics.Snapshot> e
          : cluster.nameNode(n).runner().metrics().snapshot().entrySet()) {
        OperationMetrics.Snapshot s = e.getValue();
        retries += s.retries();
        runs += s.operations() + s.failures();
        if (DATANODE_OPERATIONS.contains(e.getKey()) && s.failures() > 0) {
          failedDatanodeOperations.add("namenode " + n + " " + e.getKey() + " " + s);
        }
      }
    }
    System.out.println("StormTest: " + retries + " retries over " + runs + " transactions");
    assertTrue(failedDatanodeOperations.isEmpty(), "datanode-protocol operations failed (seed " + seed + "): "
        + failedDatanodeOperations);
    assertTrue(2 * retries < runs, "contention retries (" + retries + ") should stay below one per two "
        + "transactions (" + runs + "), seed " + seed);
  }

  static void awaitLiveDatanode(DistributedFileSystem fs) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (fs.getDataNodeStats(org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE).length == 0
        || fs.getStatus().getCapacity() == 0) {
      if (System.nanoTime() > deadline) {
        throw new IOException("namenode of " + fs.getUri() + " sees no live datanode after 30 s");
      }
      Thread.sleep(50);
    }
  }

  private static String randomPath(Random random, int minDepth) {
    int roll = random.nextInt(10);
    int depth = roll == 0 ? 1 : roll < 5 ? 2 : 3;
    depth = Math.max(depth, minDepth);
    StringBuilder path = new StringBuilder(ROOT);
    for (int level = 0; level < depth; level++) {
      path.append('/').append(POOLS[level][random.nextInt(POOLS[level].length)]);
    }
    return path.toString();
  }

  private void operate(DistributedFileSystem fs, Random random, int thread, int index) {
    // Draw every random choice before calling, so a thread's sequence depends on the seed only.
    int roll = random.nextInt(100);
    String first = randomPath(random, 1);
    String second = random.nextBoolean() ? randomPath(random, 1) : randomPath(random, 1).replaceAll("/[^/]*$", "");
    if (second.equals(ROOT)) {
      second = ROOT + "/d0";
    }
    boolean flag = random.nextInt(5) == 0;
    boolean other = random.nextBoolean();
    byte[] data = TestFiles.randomBytes(1 + random.nextInt(100), random.nextLong());
    String operation = operationName(roll);
    String description = switch (operation) {
      case "create" -> "create " + first + (flag ? " overwrite " : " ") + data.length + " bytes";
      case "rename" -> (other ? "rename " : "rename2 ") + first + " -> " + second + (flag && !other ? " OVERWRITE" : "");
      case "delete" -> "delete " + first + (flag || other ? " recursive" : "");
      default -> operation + " " + first;
    };
    long[] createdId = {-1};
    try {
      String outcome = operation;
      switch (operation) {
        case "create" -> {
          try (FSDataOutputStream out = fs.create(path(first), flag, 4096, (short) 1, 1024 * 1024)) {
            createdId[0] = ((DFSOutputStream) out.getWrappedStream()).getFileId();
            out.write(data);
          }
        }
        case "mkdirs" -> fs.mkdirs(path(first));
        case "rename" -> {
          if (other) {
            outcome = fs.rename(path(first), path(second)) ? "rename" : "rename=false";
          } else {
            outcome = "rename2";
            fs.rename(path(first), path(second), flag ? Options.Rename.OVERWRITE : Options.Rename.NONE);
          }
        }
        case "delete" -> outcome = fs.delete(path(first), flag || other) ? "delete" : "delete=false";
        case "getFileStatus" -> fs.getFileStatus(path(first));
        default -> fs.listStatus(path(first));
      }
      count(outcome);
    } catch (Throwable e) {
      String name = classify(e);
      if (name == null && !forbidden(e) && createdId[0] > 0 && !inodeExists(createdId[0])) {
        // The file was deleted or replaced while being written: its replica was invalidated under the writer,
        // whose pipeline then fails ("All datanodes ... are bad"), as in HDFS.
        name = "DeletedWhileWriting";
      }
      if (name == null) {
        unexpected.add("thread " + thread + " op " + index + " (" + description + ") failed unexpectedly: "
            + stackTrace(e));
        count(operation + "!UNEXPECTED");
      } else {
        count(operation + "!" + name.substring(name.lastIndexOf('.') + 1));
      }
    }
  }

  private static String operationName(int roll) {
    return roll < 22 ? "create" : roll < 35 ? "mkdirs" : roll < 57 ? "rename" : roll < 67 ? "delete"
        : roll < 85 ? "getFileStatus" : "listStatus";
  }

  private boolean inodeExists(long id) {
    try {
      return !"0".equals(StoreQueries.query(inspector, "SELECT count(*) FROM inodes WHERE id = " + id, 1).rows().get(0)
          .get(0));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void count(String outcome) {
    outcomes.computeIfAbsent(outcome, o -> new LongAdder()).increment();
  }

  /** Whether anything in the failure's chain names a deadlock, a lock timeout, a spent budget, the database... */
  static boolean forbidden(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      String text = (t.getMessage() + " " + t.getClass().getName()).toLowerCase(java.util.Locale.ROOT);
      if (FORBIDDEN_TEXT.stream().anyMatch(f -> text.contains(f.toLowerCase(java.util.Locale.ROOT)))) {
        return true;
      }
    }
    return false;
  }

  /** The documented exception class the failure amounts to, or null when it is not an acceptable failure. */
  static String classify(Throwable error) {
    if (forbidden(error)) {
      return null;
    }
    for (Throwable t = error; t != null; t = t.getCause()) {
      String name = t instanceof RemoteException remote ? remote.getClassName() : t.getClass().getName();
      if (EXPECTED_CLASSES.contains(name)) {
        return name;
      }
      if (name.equals(IOException.class.getName()) && t.getMessage() != null
          && EXPECTED_IO_MESSAGES.stream().anyMatch(t.getMessage()::contains)) {
        return name;
      }
      if (name.equals(org.apache.hadoop.security.AccessControlException.class.getName()) && t.getMessage() != null
          && t.getMessage().contains(UNDER_A_FILE)) {
        return name;
      }
    }
    return null;
  }

  static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  static String threadDump() {
    StringBuilder dump = new StringBuilder("thread dump:\n");
    for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
      dump.append('"').append(entry.getKey().getName()).append("\" ").append(entry.getKey().getState())
          .append('\n');
      for (StackTraceElement frame : entry.getValue()) {
        dump.append("    at ").append(frame).append('\n');
      }
    }
    return dump.toString();
  }

  /** Entries below {@code directory}, recursively, as one namenode lists them. */
  private static long countTree(DistributedFileSystem fs, org.apache.hadoop.fs.Path directory) throws IOException {
    long count = 0;
    for (FileStatus status : fs.listStatus(directory)) {
      count++;
      if (status.isDirectory()) {
        count += countTree(fs, status.getPath());
      }
    }
    return count;
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.Nameservice;
import io.canopy.metadata.postgres.PostgresSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that stops answering (issue 12 item 8): PostgreSQL, all its processes, gets SIGSTOP for 10 s while
 * clients create, read, list and make directories. Every namenode call must return or fail within the bound the
 * configured timeouts give (a call waits at most for one connection and one statement), failures must be Hadoop's
 * RetriableException (what HDFS clients retry), no client thread may stay stuck, a client with HDFS's failover retry
 * policy rides through the stop, and after SIGCONT everything works and every file a client saw closed is there with
 * its bytes.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DatabaseHangTest {
  private static final long LOCK_TIMEOUT_MS = 2000;
  private static final long STATEMENT_TIMEOUT_MS = 2500;
  private static final long SOCKET_TIMEOUT_MS = 3000;
  private static final long CONNECTION_TIMEOUT_MS = 1000;
  /**
   * The longest a namenode call may wait for a database that does not answer: a connection (the pool's wait, plus one
   * check of an idle connection, at most half of it), then one statement without an answer.
   */
  private static final long CALL_BOUND_MS = CONNECTION_TIMEOUT_MS * 3 / 2 + SOCKET_TIMEOUT_MS;
  /** Allowance on top of the bound for a loaded machine (scheduling, GC): still well below the 10 s stop. */
  private static final long SLACK_MS = 2000;
  private static final Duration STOP = Duration.ofSeconds(10);
  private static final int MAX_FILES = 400;
  private static final int FILE_BYTES = 2048;
  private static final long SEED = 20261212L;
  private static final String FAILOVER_DIRECTORY = "/hang/made-through-failover";

  @TempDir
  Path directory;

  private final Queue<TimedNamenodeCalls.Call> calls = new ConcurrentLinkedQueue<>();
  private final Map<String, byte[]> closedFiles = new ConcurrentHashMap<>();
  private final Queue<String> madeDirectories = new ConcurrentLinkedQueue<>();
  private final Queue<String> problems = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean(true);

  private static Configuration configuration() {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong(PostgresSettings.LOCK_TIMEOUT_MS, LOCK_TIMEOUT_MS);
    conf.setLong(PostgresSettings.STATEMENT_TIMEOUT_MS, STATEMENT_TIMEOUT_MS);
    conf.setLong(PostgresSettings.SOCKET_TIMEOUT_MS, SOCKET_TIMEOUT_MS);
    conf.setLong(PostgresSettings.CONNECTION_TIMEOUT_MS, CONNECTION_TIMEOUT_MS);
    conf.setInt("dfs.replication", 1);
    return conf;
  }

  @Test
  void callsDuringTenSecondsOfStoppedPostgresFailWithinTheBoundAndNothingIsLost() throws Exception {
    System.out.println("seed " + SEED + ", call bound " + CALL_BOUND_MS + " ms + " + SLACK_MS + " ms slack");
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, configuration(), 1, 1)) {
      URI uri = URI.create(cluster.uri());
      Configuration clientConf = new Configuration(cluster.conf());
      cluster.fileSystem().mkdirs(new org.apache.hadoop.fs.Path("/hang/files"));
      List<Thread> workers = new ArrayList<>();
      List<DFSClient> clients = new ArrayList<>();
      for (Workload workload : Workload.values()) {
        DFSClient client = TimedNamenodeCalls.client(uri, clientConf, calls);
        clients.add(client);
        Thread worker = new Thread(() -> work(workload, client), "hang-" + workload);
        workers.add(worker);
        worker.start();
      }
      Thread.sleep(2000);
      long stoppedAt = System.nanoTime();
      Thread failoverClient;
      try (ProcessTreeStop stop = ProcessTreeStop.of(cluster.databaseServer())) {
        Thread.sleep(1000);
        failoverClient = new Thread(() -> mkdirWithFailoverClient(cluster), "hang-failover-client");
        failoverClient.start();
        Thread.sleep(STOP.toMillis() - 1000);
      }
      long resumedAt = System.nanoTime();
      Thread.sleep(3000);
      running.set(false);
      for (Thread worker : workers) {
        worker.join(CALL_BOUND_MS + SLACK_MS);
        assertFalse(worker.isAlive(), worker.getName() + " is stuck:\n" + stackOf(worker));
      }
      for (DFSClient client : clients) {
        client.close();
      }
      failoverClient.join(Duration.ofSeconds(60).toMillis());
      assertFalse(failoverClient.isAlive(), "the failover client is stuck:\n" + stackOf(failoverClient));
      assertTrue(madeDirectories.contains(FAILOVER_DIRECTORY), "the client with HDFS's failover retry policy did not "
          + "ride through the stop: " + problems);
      checkCalls(stoppedAt, resumedAt);
      checkEverythingWorksAndNothingIsLost(cluster);
    }
  }

  /** What one client thread does, in a loop, until the test ends. */
  private enum Workload { WRITE, READ, LIST, MKDIR }

  private void work(Workload workload, DFSClient client) {
    java.util.Random random = new java.util.Random(SEED + workload.ordinal());
    int step = 0;
    while (running.get()) {
      step++;
      try {
        switch (workload) {
          case WRITE -> write(client, step);
          case READ -> read(client, random);
          case LIST -> list(client, step);
          case MKDIR -> mkdir(client, step);
          default -> throw new IllegalStateException("unknown workload " + workload);
        }
      } catch (IOException e) {
        // expected while the database is stopped; every call's outcome is recorded by TimedNamenodeCalls
      }
      sleepQuietly(20);
    }
  }

  private void write(DFSClient client, int step) throws IOException {
    if (closedFiles.size() >= MAX_FILES) {
      return;
    }
    String path = "/hang/files/f" + step;
    byte[] data = TestFiles.randomBytes(FILE_BYTES, SEED + step);
    try (OutputStream out = client.create(path, true)) {
      out.write(data);
    }
    closedFiles.put(path, data);
  }

  private void read(DFSClient client, java.util.Random random) throws IOException {
    List<String> paths = new ArrayList<>(closedFiles.keySet());
    if (paths.isEmpty()) {
      return;
    }
    String path = paths.get(random.nextInt(paths.size()));
    byte[] data = new byte[FILE_BYTES];
    try (InputStream in = client.open(path)) {
      IOUtils.readFully(in, data, 0, data.length);
    }
    if (!java.util.Arrays.equals(closedFiles.get(path), data)) {
      problems.add("read " + path + " returned other bytes than were written");
    }
  }

  private void list(DFSClient client, int step) throws IOException {
    client.listPaths("/hang/files", HdfsFileStatus.EMPTY_NAME);
    client.getFileInfo(step % 2 == 0 ? "/hang/files" : "/hang");
  }

  private void mkdir(DFSClient client, int step) throws IOException {
    String path = "/hang/dirs/d" + step;
    if (client.mkdirs(path, FsPermission.getDirDefault(), true)) {
      madeDirectories.add(path);
    }
  }

  /**
   * A client configured as for several namenodes (the nameservice, Hadoop's failover proxy provider): HDFS's failover
   * retry policy retries RetriableException after a growing sleep, so its call, made while the database is
   * stopped, succeeds once it answers again.
   */
  private void mkdirWithFailoverClient(MiniCanopyCluster cluster) {
    Configuration conf = new Configuration(cluster.conf());
    Nameservice.configure(conf, Nameservice.DEFAULT_NAME,
        List.of(NetUtils.getHostPortString(cluster.nameNode(0).address())), Nameservice.HADOOP_PROVIDER);
    long start = System.nanoTime();
    try (FileSystem fs = FileSystem.newInstance(Nameservice.uri(Nameservice.DEFAULT_NAME), conf)) {
      if (fs.mkdirs(new org.apache.hadoop.fs.Path(FAILOVER_DIRECTORY))) {
        madeDirectories.add(FAILOVER_DIRECTORY);
      }
      System.out.printf("the failover client's mkdirs succeeded after %d ms%n",
          (System.nanoTime() - start) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      problems.add("the failover client's mkdirs failed: " + e);
    }
  }

  private void checkCalls(long stoppedAt, long resumedAt) {
    List<TimedNamenodeCalls.Call> all = new ArrayList<>(calls);
    List<TimedNamenodeCalls.Call> slow = all.stream()
        .filter(call -> call.durationMs() > CALL_BOUND_MS + SLACK_MS).toList();
    List<TimedNamenodeCalls.Call> failed = all.stream().filter(call -> call.failure() != null).toList();
    List<TimedNamenodeCalls.Call> notRetriable = failed.stream().filter(call -> !isRetriable(call.failure()))
        .toList();
    long overlapping = all.stream().filter(call -> call.startNanos() + call.durationNanos() > stoppedAt
        && call.startNanos() < resumedAt).count();
    System.out.printf("%d namenode calls, %d overlapping the stop, %d failed; slowest %d ms%n", all.size(),
        overlapping, failed.size(), all.stream().mapToLong(TimedNamenodeCalls.Call::durationMs).max().orElse(0));
    failed.stream().limit(20).forEach(call -> System.out.println("  " + call));
    assertTrue(slow.isEmpty(), slow.size() + " calls took longer than " + (CALL_BOUND_MS + SLACK_MS) + " ms, e.g. "
        + slow.subList(0, Math.min(10, slow.size())));
    assertTrue(notRetriable.isEmpty(), "failures other than RetriableException: "
        + notRetriable.subList(0, Math.min(10, notRetriable.size())));
    assertTrue(failed.stream().anyMatch(call -> call.startNanos() < resumedAt
        && call.startNanos() + call.durationNanos() > stoppedAt), "no call failed while PostgreSQL was stopped");
    assertTrue(problems.isEmpty(), problems.toString());
  }

  private static boolean isRetriable(Throwable failure) {
    return failure instanceof RemoteException remote
        && RetriableException.class.getName().equals(remote.getClassName());
  }

  private void checkEverythingWorksAndNothingIsLost(MiniCanopyCluster cluster) throws Exception {
    DistributedFileSystem fs = cluster.fileSystem();
    org.apache.hadoop.fs.Path after = new org.apache.hadoop.fs.Path("/hang/after");
    byte[] data = TestFiles.randomBytes(FILE_BYTES, SEED - 1);
    Await.until("a new file can be written after SIGCONT", Duration.ofSeconds(60), () -> {
      try {
        TestFiles.write(fs, after, data, 1024 * 1024);
        return true;
      } catch (IOException e) {
        System.out.println("not yet: " + e.getMessage().lines().findFirst().orElse(""));
        return false;
      }
    });
    assertArrayEquals(data, TestFiles.read(fs, after));
    assertTrue(fs.mkdirs(new org.apache.hadoop.fs.Path("/hang/after-dir")));
    assertTrue(fs.listStatus(new org.apache.hadoop.fs.Path("/hang/files")).length >= closedFiles.size());
    System.out.println(closedFiles.size() + " files closed, " + madeDirectories.size() + " directories made");
    assertFalse(closedFiles.isEmpty(), "no file was written at all");
    for (Map.Entry<String, byte[]> file : closedFiles.entrySet()) {
      assertArrayEquals(file.getValue(), TestFiles.read(fs, new org.apache.hadoop.fs.Path(file.getKey())),
          file.getKey());
    }
    for (String made : madeDirectories) {
      assertTrue(fs.getFileStatus(new org.apache.hadoop.fs.Path(made)).isDirectory(), made);
    }
    assertEquals(1, fs.getDataNodeStats().length, "the datanode is still known");
  }

  private static String stackOf(Thread thread) {
    StringBuilder stack = new StringBuilder();
    for (StackTraceElement element : thread.getStackTrace()) {
      stack.append("  at ").append(element).append('\n');
    }
    return stack.toString();
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

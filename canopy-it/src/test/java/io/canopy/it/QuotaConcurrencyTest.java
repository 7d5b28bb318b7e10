package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quota usage under concurrency, across two namenodes sharing the database: operations under one quota directory
 * serialize on its usage row, so exactly as many creates succeed as the quota allows whatever namenode serves
 * them; and moves of directories between quota directories, quotas set and cleared, and deletes racing with writers
 * below them leave every stored usage equal to a recount.
 */
@Timeout(300)
class QuotaConcurrencyTest {
  private static final int CLIENTS = 4;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt("dfs.replication", 1)).nameNodes(2).dataNodes(1).build();
  static final List<DistributedFileSystem> clients = new ArrayList<>();

  @BeforeAll
  static void clients() throws Exception {
    for (int i = 0; i < CLIENTS; i++) {
      clients.add(CLUSTER.cluster().fileSystem(i % 2)); // half the clients on each namenode
    }
    for (int n = 0; n < 2; n++) {
      StormTest.awaitLiveDatanode(clients.get(n));
    }
  }

  @AfterEach
  void storedUsageEqualsARecount() throws IOException {
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  /** Runs {@code threads} bodies at once; returns their failures' descriptions (the bodies record expected ones). */
  private static List<Throwable> runTogether(int threads, ThreadBody body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          body.run(thread);
          return null;
        }));
      }
      start.countDown();
      for (Future<?> future : futures) {
        try {
          future.get(120, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          failures.add(e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return failures;
  }

  private interface ThreadBody {
    void run(int thread) throws Exception;
  }

  /**
   * Creates (or overwrites) and writes a file. A file deleted or replaced by another thread while being written
   * fails its writer, as in HDFS (its pipeline's replicas are invalidated, its lease is gone): that is not an error
   * here.
   */
  private static void write(DistributedFileSystem fs, String file, int bytes) throws IOException {
    long id = -1;
    try (FSDataOutputStream out = fs.create(path(file), true)) {
      id = ((org.apache.hadoop.hdfs.DFSOutputStream) out.getWrappedStream()).getFileId();
      out.write(TestFiles.randomBytes(bytes, bytes));
    } catch (IOException e) {
      if (id < 0 || inodeExists(id)) {
        throw e;
      }
    }
  }

  private static boolean inodeExists(long id) throws IOException {
    return !"0".equals(StoreQueries.query(CLUSTER.store(), "SELECT count(*) FROM inodes WHERE id = " + id, 1).rows().get(0)
        .get(0));
  }

  @Test
  void concurrentCreatesOnTwoNamenodesStopExactlyAtTheQuota() throws Exception {
    int allowed = 25;
    int threads = 8;
    int attempts = 10;
    clients.get(0).mkdirs(path("/race"));
    clients.get(0).setQuota(path("/race"), 1 + allowed, HdfsConstants.QUOTA_DONT_SET);
    AtomicInteger created = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    List<Throwable> failures = runTogether(threads, thread -> {
      DistributedFileSystem fs = clients.get(thread % CLIENTS);
      for (int i = 0; i < attempts; i++) {
        try {
          fs.create(path("/race/t" + thread + "-" + i), false).close();
          created.incrementAndGet();
        } catch (NSQuotaExceededException e) {
          refused.incrementAndGet();
        }
      }
    });
    assertEquals(List.of(), failures, "only NSQuotaExceededException may stop a create");
    assertEquals(allowed, created.get(), "creates that succeeded");
    assertEquals(threads * attempts - allowed, refused.get(), "creates refused by the quota");
    for (int n = 0; n < 2; n++) {
      assertEquals(1 + allowed, clients.get(n).getQuotaUsage(path("/race")).getFileAndDirectoryCount(),
          "usage seen through namenode " + n);
      assertEquals(allowed, clients.get(n).listStatus(path("/race")).length);
    }
  }

  @Test
  void concurrentMkdirsCreatesAndDeletesUnderNestedQuotasKeepUsageExact() throws Exception {
    DistributedFileSystem admin = clients.get(0);
    admin.mkdirs(path("/nest/inner"));
    admin.setQuota(path("/nest"), 1000, 1L << 40);
    admin.setQuota(path("/nest/inner"), 60, HdfsConstants.QUOTA_DONT_SET);
    List<Throwable> failures = runTogether(8, thread -> {
      DistributedFileSystem fs = clients.get(thread % CLIENTS);
      Random random = new Random(thread);
      for (int i = 0; i < 40; i++) {
        String base = random.nextBoolean() ? "/nest/inner" : "/nest";
        String name = base + "/d" + random.nextInt(4) + "/e" + random.nextInt(3);
        try {
          switch (random.nextInt(4)) {
            case 0 -> fs.mkdirs(path(name));
            case 1 -> write(fs, name + "/f" + random.nextInt(3), 1 + random.nextInt(500));
            case 2 -> fs.delete(path(base + "/d" + random.nextInt(4)), true);
            default -> fs.delete(path(name), true);
          }
        } catch (NSQuotaExceededException | FileNotFoundException | FileAlreadyExistsException expected) {
          // the inner quota is small on purpose; deletes race with creates below them
        }
      }
    });
    assertEquals(List.of(), failures);
  }

  @Test
  void movesBetweenQuotaDirectoriesWhileOthersWriteBelowKeepUsageExact() throws Exception {
    DistributedFileSystem admin = clients.get(0);
    for (int s = 0; s < 3; s++) {
      admin.mkdirs(path("/moves/a/x/s" + s));
    }
    admin.mkdirs(path("/moves/b"));
    admin.setQuota(path("/moves/a"), 10_000, 1L << 40);
    admin.setQuota(path("/moves/b"), 10_000, 1L << 40);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger writes = new AtomicInteger();
    AtomicInteger moves = new AtomicInteger();
    ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    List<Throwable> failures = runTogether(6, thread -> {
      DistributedFileSystem fs = clients.get(thread % CLIENTS);
      Random random = new Random(thread * 31L);
      if (thread == 0) {
        // the mover: x goes back and forth between the two quota directories
        String at = "/moves/a";
        for (int i = 0; i < 30; i++) {
          String to = at.equals("/moves/a") ? "/moves/b" : "/moves/a";
          fs.rename(path(at + "/x"), path(to + "/x"), Options.Rename.NONE);
          moves.incrementAndGet();
          at = to;
          // a pause, as between a user's commands: back-to-back moves of one directory would starve the writers
          // below it of attempts (each one that read its path before a move re-runs)
          Thread.sleep(20);
        }
        writing.set(false);
        return;
      }
      if (thread == 1) {
        // quotas set and cleared below the moving directory
        int i = 0;
        while (writing.get()) {
          for (String side : new String[] {"/moves/a", "/moves/b"}) {
            try {
              fs.setQuota(path(side + "/x/s0"), i++ % 2 == 0 ? 5_000 : HdfsConstants.QUOTA_RESET,
                  HdfsConstants.QUOTA_DONT_SET);
            } catch (FileNotFoundException elsewhere) {
              // x is on the other side right now
            }
          }
          Thread.sleep(5);
        }
        return;
      }
      while (writing.get()) {
        String side = random.nextBoolean() ? "/moves/a" : "/moves/b";
        String file = side + "/x/s" + random.nextInt(3) + "/f" + thread + "-" + random.nextInt(20);
        try (FSDataOutputStream out = fs.createNonRecursive(path(file), FsPermission.getFileDefault(),
            java.util.EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE), 4096, (short) 1, 1024 * 1024, null)) {
          out.write(TestFiles.randomBytes(1 + random.nextInt(2000), thread));
          writes.incrementAndGet();
        } catch (FileNotFoundException elsewhere) {
          // x is on the other side right now
        } catch (IOException e) {
          log.add(file + ": " + e);
          throw e;
        }
        if (random.nextInt(4) == 0) {
          try {
            fs.delete(path(side + "/x/s" + random.nextInt(3) + "/f" + thread + "-" + random.nextInt(20)), false);
          } catch (FileNotFoundException elsewhere) {
            // gone already
          }
        }
      }
    });
    assertEquals(List.of(), failures, "writers' failures: " + log);
    assertEquals(30, moves.get());
    assertTrue(writes.get() > 0, "some writes happened while x moved");
    long inX = admin.getContentSummary(path("/moves/a/x")).getFileCount()
        + admin.getContentSummary(path("/moves/a/x")).getDirectoryCount();
    assertEquals(1 + inX, admin.getQuotaUsage(path("/moves/a")).getFileAndDirectoryCount(), "x ended under a");
    assertEquals(1, admin.getQuotaUsage(path("/moves/b")).getFileAndDirectoryCount());
  }
}

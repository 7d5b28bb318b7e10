package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.tx.OperationMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The write path under concurrency, through the stock client: writers of 4 KB files in one directory. complete()
 * waits for the datanodes' reports on the signal of the report's application, not by polling the database, and
 * nothing retries.
 */
@Timeout(180)
class WritePathTest {
  private static final int WRITERS = 8;
  private static final int FILES_PER_WRITER = 8;
  private static final int FILE_BYTES = 4096;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(3).build();

  @Test
  void concurrentWritersInOneDirectoryCompleteOnTheReportSignalWithoutRetries() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem();
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/writers");
    fs.mkdirs(dir);
    Map<String, OperationMetrics.Snapshot> before = CLUSTER.cluster().nameNode(0).runner().metrics().snapshot();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          for (int f = 0; f < FILES_PER_WRITER; f++) {
            try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(dir, writer + "-" + f))) {
              out.write(content(writer, f));
            }
          }
          return null;
        }));
      }
      for (Future<?> writer : writers) {
        writer.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, OperationMetrics.Snapshot> after = CLUSTER.cluster().nameNode(0).runner().metrics().snapshot();
    int files = WRITERS * FILES_PER_WRITER;
    for (int w = 0; w < WRITERS; w++) {
      for (int f = 0; f < FILES_PER_WRITER; f++) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, w + "-" + f);
        assertTrue(fs.isFileClosed(file), file.toString());
        byte[] read = new byte[FILE_BYTES];
        try (FSDataInputStream in = fs.open(file)) {
          in.readFully(read);
        }
        assertArrayEquals(content(w, f), read, file.toString());
      }
    }
    assertEquals(files, delta(before, after, "create").operations());
    for (String operation : List.of("create", "addBlock", "complete", "applyReplicaReports")) {
      assertEquals(0, delta(before, after, operation).retries(), operation + " retried");
    }
    // Before the report signal, a waiting complete() polled the database every few milliseconds: about one poll per
    // file with one writer, several with eight. Now it polls only when no report came within 100 ms.
    long polls = delta(before, after, "completeReadiness").operations();
    assertTrue(polls <= files / 4, polls + " readiness polls for " + files + " files");
    // complete() waits for its last block's first report before its first transaction, rather than running one to
    // hear "not yet": about 1.9 complete transactions per file before, one now (a few more when a report is late).
    long completes = delta(before, after, "complete").operations();
    assertTrue(completes <= files + files / 4, completes + " complete transactions for " + files + " files");
  }

  private static byte[] content(int writer, int file) {
    byte[] data = new byte[FILE_BYTES];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (writer * 31 + file * 7 + i);
    }
    return data;
  }

  private static OperationMetrics.Snapshot delta(Map<String, OperationMetrics.Snapshot> before,
      Map<String, OperationMetrics.Snapshot> after, String operation) {
    return after.getOrDefault(operation, OperationMetrics.Snapshot.ZERO)
        .minus(before.getOrDefault(operation, OperationMetrics.Snapshot.ZERO));
  }
}

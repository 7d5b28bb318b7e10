package io.canopy.bench;

import io.canopy.bench.mix.CallWindows;
import io.canopy.bench.mix.FlatDirectoryBuilder;
import io.canopy.bench.mix.ParentDirectoryLoad;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * What the subtree protocol's threshold trades (design 017), against a running cluster: for each size, a directory of
 * that many empty files is built, clients work in its parent (creating, stat-ing and deleting their own files) for an
 * undisturbed window, then while the directory is deleted with one {@code rm -r}; prints the delete's time and the
 * clients' throughput and p99 in both windows. Run it on a cluster started with a threshold above every size (each
 * delete one transaction) and on one with threshold 1 (each through the protocol), and compare.
 *
 * <pre>SubtreeThresholdLoad hdfs://127.0.0.1:PORT ROUNDS SIZE...</pre>
 */
public final class SubtreeThresholdLoad {
  private static final int BUILDER_THREADS = 8;
  private static final int CLIENTS = 4;
  private static final long SEED = 7;
  private static final long WARMUP_MS = 500;
  private static final long UNDISTURBED_MS = 1500;
  private static final int MAX_SIZE = 1_000_000;
  private static final int MAX_ROUNDS = 10;

  private SubtreeThresholdLoad() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: SubtreeThresholdLoad URI ROUNDS SIZE...");
      System.exit(2);
    }
    URI uri = URI.create(args[0]);
    int rounds = bounded("ROUNDS", Integer.parseInt(args[1]), MAX_ROUNDS);
    List<Integer> sizes = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      sizes.add(bounded("SIZE", Integer.parseInt(args[i]), MAX_SIZE));
    }
    Configuration conf = new Configuration();
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName()); // the stock client, whatever the class path
    PrintWriter quiet = new PrintWriter(OutputStream.nullOutputStream());
    System.out.println("round | files | rm -r (s) | parent clients undisturbed -> during (ops/s) | kept | p99 (ms)");
    try (FileSystem client = FileSystem.newInstance(uri, conf)) {
      for (int round = 0; round < rounds; round++) {
        for (int files : sizes) {
          Path parent = new Path("/canopy-bench/threshold/" + round + "-" + files);
          Path victim = new Path(parent, "big");
          new FlatDirectoryBuilder(uri, conf, BUILDER_THREADS).build(victim, files, quiet);
          measure(uri, conf, client, parent, victim, round, files);
          client.delete(parent, true);
        }
      }
    }
  }

  private static void measure(URI uri, Configuration conf, FileSystem client, Path parent, Path victim, int round,
      int files) throws IOException {
    try (ParentDirectoryLoad load = ParentDirectoryLoad.start(uri, conf, parent, CLIENTS, SEED)) {
      pause(WARMUP_MS);
      CallWindows.Window quietWindow = load.startWindow();
      pause(UNDISTURBED_MS);
      CallWindows.WindowResult undisturbed = quietWindow.end();
      CallWindows.Window busy = load.startWindow();
      long started = System.nanoTime();
      if (!client.delete(victim, true)) {
        throw new IOException("rm -r " + victim + " returned false");
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      CallWindows.WindowResult during = busy.end();
      System.out.printf(Locale.ROOT, "%d | %,d | %.3f | %.0f -> %.0f | %.0f%% | %.1f -> %.1f%n", round, files, seconds,
          undisturbed.operationsPerSecond(), during.operationsPerSecond(),
          100 * during.operationsPerSecond() / undisturbed.operationsPerSecond(), undisturbed.latency().p99Ms(),
          during.latency().p99Ms());
    }
  }

  private static int bounded(String what, int value, int max) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(what + " must be 1 to " + max + ", got " + value);
    }
    return value;
  }

  private static void pause(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }
}

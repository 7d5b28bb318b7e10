package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Clients working in one directory while something else happens to it (issue 16: the parent of a directory being
 * deleted): each thread, with a client of its own, repeats create (empty file), getFileStatus and delete of its own
 * files {@code w<thread>-<n>}, until closed. Measured in {@link Window}s: throughput counts the calls completed inside
 * the window; the latency percentiles count every call that overlapped it, so a call blocked across the whole window
 * shows with its full latency. Ending a window waits (bounded) for the calls in flight at its end.
 */
public final class ParentDirectoryLoad implements AutoCloseable {
  /** The longest wait for calls in flight when a window ends or the load stops (above any RPC timeout). */
  static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);
  private static final int MAX_LATENCY_SAMPLES = 1_000_000;
  private static final int MAX_FAILURE_MESSAGES = 10;
  private static final long IDLE = Long.MAX_VALUE;

  /** What one window measured: calls of every kind (create, getFileStatus, delete) together. */
  public record WindowResult(double seconds, long operations, double operationsPerSecond,
      LatencyStatistics latency, long failures, List<String> firstFailures) {
    public WindowResult {
      firstFailures = List.copyOf(firstFailures);
    }
  }

  private final List<FileSystem> clients = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Window> open = new CopyOnWriteArrayList<>();
  /** Per thread: when its call in flight started, {@link #IDLE} when it has stopped. */
  private final AtomicLongArray inFlightSince;
  private final long seed;
  private volatile boolean stopping;

  private ParentDirectoryLoad(int threadCount, long seed) {
    this.inFlightSince = new AtomicLongArray(threadCount);
    this.seed = seed;
  }

  /** Connects {@code threadCount} clients and starts them working in {@code directory}, which must exist. */
  public static ParentDirectoryLoad start(URI uri, Configuration conf, Path directory, int threadCount, long seed)
      throws IOException {
    Preconditions.checkArgument(threadCount >= 1 && threadCount <= MixSettings.MAX_THREADS,
        "threads must be within [1, %s], got %s", MixSettings.MAX_THREADS, threadCount);
    ParentDirectoryLoad load = new ParentDirectoryLoad(threadCount, seed);
    try {
      for (int i = 0; i < threadCount; i++) {
        load.clients.add(FileSystem.newInstance(uri, conf));
      }
    } catch (IOException e) {
      load.close();
      throw e;
    }
    for (int i = 0; i < threadCount; i++) {
      int index = i;
      load.inFlightSince.set(i, System.nanoTime());
      Thread thread = new Thread(() -> load.work(index, directory), "parent-directory-load-" + i);
      thread.setDaemon(true);
      load.threads.add(thread);
      thread.start();
    }
    return load;
  }

  /** Opens a window now; {@link Window#end()} closes it. */
  public Window startWindow() {
    Window window = new Window(System.nanoTime(), new LatencySamples(MAX_LATENCY_SAMPLES, new Random(seed)));
    open.add(window);
    return window;
  }

  private void work(int thread, Path directory) {
    FileSystem client = clients.get(thread);
    for (long sequence = 0; !stopping; sequence++) {
      Path file = new Path(directory, "w" + thread + "-" + sequence);
      if (call(thread, () -> client.create(file, false).close())) {
        call(thread, () -> client.getFileStatus(file));
        call(thread, () -> {
          if (!client.delete(file, false)) {
            throw new IOException("delete " + file + " returned false");
          }
        });
      }
    }
    inFlightSince.set(thread, IDLE);
  }

  private interface Call {
    void run() throws IOException;
  }

  /** Runs and times one call; answers whether it succeeded. */
  private boolean call(int thread, Call call) {
    long start = System.nanoTime();
    inFlightSince.set(thread, start);
    String failure = null;
    try {
      call.run();
    } catch (IOException | RuntimeException e) {
      failure = e.toString();
    }
    long end = System.nanoTime();
    for (Window window : open) {
      window.record(start, end, failure);
    }
    return failure == null;
  }

  /** Waits until no thread is in a call that started before {@code nanos} (bounded by {@link #DRAIN_TIMEOUT}). */
  private void drain(long nanos) throws IOException {
    long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    for (int thread = 0; thread < inFlightSince.length(); thread++) {
      while (inFlightSince.get(thread) < nanos) {
        if (System.nanoTime() > deadline) {
          throw new IOException("a client in the parent directory is still in a call started "
              + (System.nanoTime() - inFlightSince.get(thread)) / 1_000_000 + " ms ago, after waiting "
              + DRAIN_TIMEOUT.toSeconds() + " s for it");
        }
        sleepBriefly();
      }
    }
  }

  private static void sleepBriefly() throws IOException {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for calls in flight");
    }
  }

  /** Stops the threads (after their calls in flight, bounded) and closes the clients. */
  @Override
  public void close() throws IOException {
    stopping = true;
    try {
      for (Thread thread : threads) {
        thread.join(DRAIN_TIMEOUT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      for (FileSystem client : clients) {
        client.close();
      }
    }
  }

  /** One measured interval: from its creation to {@link #end()}. */
  public final class Window {
    private final long startNanos;
    private final LatencySamples latencies;
    private final List<String> firstFailures = new ArrayList<>();
    private long endNanos = Long.MAX_VALUE;
    private long completed;
    private long failures;

    private Window(long startNanos, LatencySamples latencies) {
      this.startNanos = startNanos;
      this.latencies = latencies;
    }

    private synchronized void record(long start, long end, String failure) {
      if (end < startNanos || start >= endNanos) {
        return; // did not overlap the window
      }
      if (failure != null) {
        failures++;
        if (firstFailures.size() < MAX_FAILURE_MESSAGES) {
          firstFailures.add(failure);
        }
        return;
      }
      latencies.record(end - start);
      if (end <= endNanos) {
        completed++;
      }
    }

    /** Ends the window now, waits for the calls in flight, and answers what it measured. */
    public WindowResult end() throws IOException {
      long end = System.nanoTime();
      synchronized (this) {
        Preconditions.checkState(endNanos == Long.MAX_VALUE, "the window has already ended");
        endNanos = end;
      }
      try {
        drain(end);
      } finally {
        open.remove(this);
      }
      synchronized (this) {
        double seconds = (endNanos - startNanos) / 1e9;
        return new WindowResult(seconds, completed, seconds > 0 ? completed / seconds : 0,
            LatencySamples.merge(List.of(latencies)), failures, firstFailures);
      }
    }
  }
}

package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileSystem;

/**
 * Measures a load that runs until it is stopped (issue 16: clients working while a big directory is deleted) in
 * {@link Window}s: throughput counts the calls completed inside the window; the latency percentiles count every call
 * that overlapped it, so a call blocked across the whole window shows with its full latency. Ending a window waits
 * (bounded) for the calls in flight at its end. The load's threads report each call's start and end here; shared by
 * {@link ParentDirectoryLoad} and {@link MixLoad}.
 */
public final class CallWindows {
  /** The longest wait for calls in flight when a window ends or the load stops (above any RPC timeout). */
  static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);
  private static final int MAX_LATENCY_SAMPLES = 1_000_000;
  private static final int MAX_FAILURE_MESSAGES = 10;
  private static final long IDLE = Long.MAX_VALUE;

  /** What one window measured: calls of every kind together. */
  public record WindowResult(double seconds, long operations, double operationsPerSecond,
      LatencyStatistics latency, long failures, List<String> firstFailures) {
    public WindowResult {
      firstFailures = List.copyOf(firstFailures);
    }
  }

  private final List<Window> open = new CopyOnWriteArrayList<>();
  /** Per thread: when its call in flight started, {@link #IDLE} when it has stopped. */
  private final AtomicLongArray inFlightSince;
  private final long seed;
  private final LongSupplier nanoClock;
  /** Who is waited for, for the drain timeout's message ("a client in the parent directory"). */
  private final String clients;

  CallWindows(int threadCount, long seed, LongSupplier nanoClock, String clients) {
    Preconditions.checkArgument(threadCount >= 1, "threads must be at least 1, got %s", threadCount);
    this.inFlightSince = new AtomicLongArray(threadCount);
    this.seed = seed;
    this.nanoClock = nanoClock;
    this.clients = clients;
    long now = nanoClock.getAsLong();
    for (int thread = 0; thread < threadCount; thread++) {
      inFlightSince.set(thread, now); // a window opened before a thread's first call waits for that call
    }
  }

  long now() {
    return nanoClock.getAsLong();
  }

  /** {@code thread} starts a call at {@code startNanos}. */
  void starting(int thread, long startNanos) {
    inFlightSince.set(thread, startNanos);
  }

  /** A call of some thread ran from {@code startNanos} to {@code endNanos}; {@code failure} null when it succeeded. */
  void finished(long startNanos, long endNanos, String failure) {
    for (Window window : open) {
      window.record(startNanos, endNanos, failure);
    }
  }

  /** {@code thread} makes no more calls: windows stop waiting for it. */
  void stopped(int thread) {
    inFlightSince.set(thread, IDLE);
  }

  /**
   * For a load being closed, once its threads were told to stop: waits for them (each bounded by
   * {@link #DRAIN_TIMEOUT}, as they finish a call in flight), then closes their clients.
   */
  static void joinThenClose(List<Thread> threads, List<FileSystem> clients) throws IOException {
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

  /** Opens a window now; {@link Window#end()} closes it. */
  public Window startWindow() {
    Window window = new Window(now(), new LatencySamples(MAX_LATENCY_SAMPLES, new Random(seed)));
    open.add(window);
    return window;
  }

  /** Waits until no thread is in a call that started before {@code nanos} (bounded by {@link #DRAIN_TIMEOUT}). */
  private void drain(long nanos) throws IOException {
    long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    for (int thread = 0; thread < inFlightSince.length(); thread++) {
      while (inFlightSince.get(thread) < nanos) {
        if (System.nanoTime() > deadline) {
          throw new IOException(clients + " is still in a call started "
              + (now() - inFlightSince.get(thread)) / 1_000_000 + " ms ago, after waiting "
              + DRAIN_TIMEOUT.toSeconds() + " s for it");
        }
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting for calls in flight");
        }
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

    private CallWindows outer() {
      return CallWindows.this;
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
      return endTogether(List.of(this)).get(0);
    }

    private synchronized void markEnd(long end) {
      Preconditions.checkState(endNanos == Long.MAX_VALUE, "the window has already ended");
      endNanos = end;
    }

    private WindowResult result() throws IOException {
      try {
        drain(endNanos);
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

  /**
   * Ends {@code windows} (of one load or of several) at the same instant, so that loads measured side by side cover
   * the same interval, then waits for each one's calls in flight; the results in the same order. The windows'
   * loads must share one clock (the first window's is read).
   */
  public static List<WindowResult> endTogether(List<Window> windows) throws IOException {
    long end = windows.get(0).outer().now();
    for (Window window : windows) {
      window.markEnd(end);
    }
    List<WindowResult> results = new ArrayList<>();
    for (Window window : windows) {
      results.add(window.result());
    }
    return results;
  }
}

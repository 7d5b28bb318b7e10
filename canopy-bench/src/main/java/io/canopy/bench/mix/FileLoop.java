package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileSystem;

/**
 * A timed run of one file operation on many threads, each with a client of its own: every thread repeats the
 * operation from the start until the planned end. As in the mix, operations started during the warm-up are not
 * recorded; throughput divides the recorded files by the time from the end of the warm-up to the end of the last
 * recorded file. A failed operation (an exception, or a check of its result that fails) is counted, never retried,
 * and its message kept (the first {@value #MAX_FAILURE_MESSAGES}).
 */
public final class FileLoop {
  /** Latency samples kept over all threads (a reservoir beyond: see {@link LatencySamples}). */
  private static final int MAX_LATENCY_SAMPLES = 1_000_000;
  private static final int MAX_FAILURE_MESSAGES = 10;

  /** One file operation, the timed part; what it returns is checked after the clock stopped. */
  @FunctionalInterface
  public interface FileOperation {
    /**
     * Does the operation on {@code client} for thread {@code thread}'s {@code sequence}-th file (from 0).
     *
     * @return the check of its result, run untimed; {@link Check#NONE} when there is nothing to check
     */
    Check run(FileSystem client, int thread, long sequence) throws IOException;
  }

  /** Verifies what an operation produced (e.g. the bytes read); a failure counts the file as failed. */
  @FunctionalInterface
  public interface Check {
    Check NONE = () -> { };

    void verify() throws IOException;
  }

  private final String label;
  private final int threads;
  private final Duration warmup;
  private final Duration duration;
  private final long seed;
  private final LongSupplier nanoClock;

  /** {@code label} names the operation in messages; {@code seed} only drives the latency reservoir. */
  public FileLoop(String label, int threads, Duration warmup, Duration duration, long seed) {
    Preconditions.checkArgument(threads >= 1 && threads <= MixSettings.MAX_THREADS,
        "threads must be within [1, %s], got %s", MixSettings.MAX_THREADS, threads);
    Preconditions.checkArgument(!warmup.isNegative() && !duration.isNegative() && !duration.isZero(),
        "warm-up must be >= 0 and duration > 0, got %s and %s", warmup, duration);
    this.label = label;
    this.threads = threads;
    this.warmup = warmup;
    this.duration = duration;
    this.seed = seed;
    this.nanoClock = System::nanoTime;
  }

  public int threads() {
    return threads;
  }

  public Duration warmup() {
    return warmup;
  }

  public Duration duration() {
    return duration;
  }

  /** Runs {@code operation} on one thread per client (exactly {@link #threads()}) and tells {@code interval}. */
  public FileRunResult run(List<FileSystem> clients, FileOperation operation, RecordedInterval interval)
      throws IOException {
    Preconditions.checkArgument(clients.size() == threads, "%s clients for %s threads", clients.size(), threads);
    long warmupEnd = nanoClock.getAsLong() + warmup.toNanos();
    long end = warmupEnd + duration.toNanos();
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger failureCount = new AtomicInteger();
    List<Worker> workers = new ArrayList<>();
    List<Thread> running = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Worker worker = new Worker(i, clients.get(i), operation, warmupEnd, end, failures, failureCount);
      Thread thread = new Thread(worker, label.replace(' ', '-') + "-" + i);
      thread.setDaemon(true);
      workers.add(worker);
      running.add(thread);
      thread.start();
    }
    awaitEnd(running, workers, interval, warmupEnd, end);
    return result(workers, warmupEnd, List.copyOf(failures));
  }

  private void awaitEnd(List<Thread> running, List<Worker> workers, RecordedInterval interval, long warmupEnd,
      long end) throws IOException {
    try {
      interval.startAt(warmupEnd, nanoClock);
      long deadlineNanos = end + MixRunner.STUCK_GRACE.toNanos();
      for (Thread thread : running) {
        long remainingMs = (deadlineNanos - nanoClock.getAsLong()) / 1_000_000;
        thread.join(Math.max(1, remainingMs));
        if (thread.isAlive()) {
          throw new IOException(label + " client " + thread.getName() + " still busy "
              + MixRunner.STUCK_GRACE.toSeconds() + " s after the planned end (the file system stopped answering?)");
        }
      }
    } catch (InterruptedException e) {
      running.forEach(Thread::interrupt);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the " + label + " run ran");
    } catch (IOException e) {
      running.forEach(Thread::interrupt);
      throw e;
    }
    interval.ended();
    for (Worker worker : workers) {
      if (worker.crash != null) {
        throw new IOException(label + " client " + worker.index + " crashed: " + worker.crash, worker.crash);
      }
    }
  }

  private FileRunResult result(List<Worker> workers, long warmupEnd, List<String> failures) {
    long lastEnd = warmupEnd;
    long recordedFailures = 0;
    long warmupFailures = 0;
    List<LatencySamples> samples = new ArrayList<>();
    for (Worker worker : workers) {
      lastEnd = Math.max(lastEnd, worker.lastRecordedEndNanos);
      recordedFailures += worker.recordedFailures;
      warmupFailures += worker.warmupFailures;
      samples.add(worker.latencies);
    }
    LatencyStatistics latency = LatencySamples.merge(samples);
    double seconds = Math.max(1e-9, (lastEnd - warmupEnd) / 1e9);
    return new FileRunResult(threads, seconds, latency.count(), latency.count() / seconds, latency,
        recordedFailures, warmupFailures, failures);
  }

  /** One client thread; its fields are read by the runner after join(). */
  private final class Worker implements Runnable {
    private final int index;
    private final FileSystem client;
    private final FileOperation operation;
    private final long warmupEnd;
    private final long end;
    private final Queue<String> failures;
    private final AtomicInteger failureCount;
    private final LatencySamples latencies;
    private long recordedFailures;
    private long warmupFailures;
    private long lastRecordedEndNanos;
    private Throwable crash;

    Worker(int index, FileSystem client, FileOperation operation, long warmupEnd, long end, Queue<String> failures,
        AtomicInteger failureCount) {
      this.index = index;
      this.client = client;
      this.operation = operation;
      this.warmupEnd = warmupEnd;
      this.end = end;
      this.failures = failures;
      this.failureCount = failureCount;
      this.latencies = new LatencySamples(Math.max(1, MAX_LATENCY_SAMPLES / threads),
          new Random(MixWorker.seedFor(seed, index, 2)));
    }

    @Override
    public void run() {
      try {
        for (long sequence = 0; ; sequence++) {
          long start = nanoClock.getAsLong();
          if (start - end >= 0) {
            return;
          }
          boolean recording = start - warmupEnd >= 0;
          long latency;
          try {
            Check check = operation.run(client, index, sequence);
            latency = nanoClock.getAsLong() - start;
            check.verify();
          } catch (IOException e) {
            failed(recording, sequence, e);
            continue;
          }
          if (recording) {
            latencies.record(latency);
            lastRecordedEndNanos = start + latency;
          }
        }
      } catch (RuntimeException | Error unexpected) {
        crash = unexpected;
      }
    }

    private void failed(boolean recording, long sequence, IOException e) {
      if (recording) {
        recordedFailures++;
      } else {
        warmupFailures++;
      }
      if (failureCount.incrementAndGet() <= MAX_FAILURE_MESSAGES) {
        failures.add((recording ? "" : "(warm-up) ") + label + ", thread " + index + ", file " + sequence + ": " + e);
      }
    }
  }
}

package io.canopy.bench.mix;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The small-file write path through the stock client: every thread, with a client and RPC connection of its own (as
 * {@link MixRunner}'s), repeats {@code fs.create(path)}, write {@value #FILE_BYTES} bytes, {@code close()} of a new
 * file, all threads in one directory of their own run (as the tasks of a job write into one output directory).
 * A file is one operation: create, addBlock, the datanode pipeline and complete. As in the mix, files started
 * during the warm-up are not recorded; throughput divides the recorded files by the time from the end of the
 * warm-up to the end of the last recorded file.
 */
public final class CreateWriteRunner {
  /** Bytes written to every file. */
  public static final int FILE_BYTES = 4096;
  /** Latency samples kept over all threads (a reservoir beyond: see {@link LatencySamples}). */
  private static final int MAX_LATENCY_SAMPLES = 1_000_000;
  private static final int MAX_FAILURE_MESSAGES = 10;

  private final URI uri;
  private final Configuration configuration;
  private final int threads;
  private final Duration warmup;
  private final Duration duration;
  private final long seed;
  private final LongSupplier nanoClock;

  public CreateWriteRunner(URI uri, Configuration configuration, int threads,
      Duration warmup, Duration duration, long seed) {
    this.uri = Objects.requireNonNull(uri, "uri");
    this.configuration = new Configuration(configuration);
    if (threads < 1 || threads > MixSettings.MAX_THREADS) {
      throw new IllegalArgumentException("threads must be within [1, " + MixSettings.MAX_THREADS + "], got "
          + threads);
    }
    if (warmup.isNegative() || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("warm-up must be >= 0 and duration > 0, got " + warmup + " and "
          + duration);
    }
    this.threads = threads;
    this.warmup = warmup;
    this.duration = duration;
    this.seed = seed;
    this.nanoClock = System::nanoTime;
  }

  /** Writes files into {@code directory} (made first, untimed) and tells {@code interval} where the record starts. */
  public CreateWriteResult run(Path directory, PrintWriter progress, RecordedInterval interval) throws IOException {
    String userName = UserGroupInformation.getCurrentUser().getShortUserName();
    progress.printf(Locale.ROOT, "create + write %d bytes + close: %d threads into %s, %.1f s warm-up, %.1f s "
        + "recorded%n", FILE_BYTES, threads, directory, warmup.toMillis() / 1000.0, duration.toMillis() / 1000.0);
    progress.flush();
    List<FileSystem> clients = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        clients.add(MixRunner.newClient(uri, configuration, userName, true));
      }
      if (!clients.get(0).mkdirs(directory)) {
        throw new IOException("mkdirs(" + directory + ") returned false on " + uri);
      }
      long warmupEnd = nanoClock.getAsLong() + warmup.toNanos();
      long end = warmupEnd + duration.toNanos();
      Queue<String> failures = new ConcurrentLinkedQueue<>();
      AtomicInteger failureCount = new AtomicInteger();
      List<Writer> writers = new ArrayList<>();
      List<Thread> running = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Writer writer = new Writer(i, clients.get(i), directory, warmupEnd, end, failures, failureCount);
        Thread thread = new Thread(writer, "create-write-" + i);
        thread.setDaemon(true);
        writers.add(writer);
        running.add(thread);
        thread.start();
      }
      awaitEnd(running, writers, interval, warmupEnd, end);
      return result(writers, warmupEnd, List.copyOf(failures));
    } finally {
      MixRunner.closeAll(clients, progress);
    }
  }

  private void awaitEnd(List<Thread> running, List<Writer> writers, RecordedInterval interval, long warmupEnd,
      long end) throws IOException {
    try {
      interval.startAt(warmupEnd, nanoClock);
      long deadlineNanos = end + MixRunner.STUCK_GRACE.toNanos();
      for (Thread thread : running) {
        long remainingMs = (deadlineNanos - nanoClock.getAsLong()) / 1_000_000;
        thread.join(Math.max(1, remainingMs));
        if (thread.isAlive()) {
          throw new IOException("create + write client " + thread.getName() + " still busy "
              + MixRunner.STUCK_GRACE.toSeconds() + " s after the planned end (the file system stopped answering?)");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the create + write run ran");
    } catch (IOException e) {
      running.forEach(Thread::interrupt);
      throw e;
    }
    interval.ended();
    for (Writer writer : writers) {
      if (writer.crash != null) {
        throw new IOException("create + write client " + writer.index + " crashed: " + writer.crash, writer.crash);
      }
    }
  }

  private CreateWriteResult result(List<Writer> writers, long warmupEnd, List<String> failures) {
    long lastEnd = warmupEnd;
    long recordedFailures = 0;
    long warmupFailures = 0;
    List<LatencySamples> samples = new ArrayList<>();
    for (Writer writer : writers) {
      lastEnd = Math.max(lastEnd, writer.lastRecordedEndNanos);
      recordedFailures += writer.recordedFailures;
      warmupFailures += writer.warmupFailures;
      samples.add(writer.latencies);
    }
    LatencyStatistics latency = LatencySamples.merge(samples);
    double seconds = Math.max(1e-9, (lastEnd - warmupEnd) / 1e9);
    return new CreateWriteResult(threads, seconds, latency.count(), latency.count() / seconds, latency,
        recordedFailures, warmupFailures, failures);
  }

  /** One client thread; its fields are read by the runner after join(). */
  private final class Writer implements Runnable {
    private final int index;
    private final FileSystem fileSystem;
    private final Path directory;
    private final long warmupEnd;
    private final long end;
    private final Queue<String> failures;
    private final AtomicInteger failureCount;
    private final LatencySamples latencies;
    private final byte[] content = new byte[FILE_BYTES];
    private long recordedFailures;
    private long warmupFailures;
    private long lastRecordedEndNanos;
    private Throwable crash;

    Writer(int index, FileSystem fileSystem, Path directory, long warmupEnd, long end, Queue<String> failures,
        AtomicInteger failureCount) {
      this.index = index;
      this.fileSystem = fileSystem;
      this.directory = directory;
      this.warmupEnd = warmupEnd;
      this.end = end;
      this.failures = failures;
      this.failureCount = failureCount;
      this.latencies = new LatencySamples(Math.max(1, MAX_LATENCY_SAMPLES / threads),
          new Random(MixWorker.seedFor(seed, index, 2)));
      new Random(MixWorker.seedFor(seed, index, 1)).nextBytes(content);
    }

    @Override
    public void run() {
      try {
        for (long file = 0; ; file++) {
          long start = nanoClock.getAsLong();
          if (start - end >= 0) {
            return;
          }
          boolean recording = start - warmupEnd >= 0;
          Path path = new Path(directory, "f-" + index + "-" + file);
          try (FSDataOutputStream out = fileSystem.create(path)) {
            out.write(content);
          } catch (IOException e) {
            if (recording) {
              recordedFailures++;
            } else {
              warmupFailures++;
            }
            if (failureCount.incrementAndGet() <= MAX_FAILURE_MESSAGES) {
              failures.add((recording ? "" : "(warm-up) ") + "thread " + index + ": " + path + ": " + e);
            }
            continue;
          }
          if (recording) {
            long now = nanoClock.getAsLong();
            latencies.record(now - start);
            lastRecordedEndNanos = now;
          }
        }
      } catch (RuntimeException | Error unexpected) {
        crash = unexpected;
      }
    }
  }
}

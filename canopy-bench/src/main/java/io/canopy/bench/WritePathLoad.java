package io.canopy.bench;

import io.canopy.bench.mix.LatencyStatistics;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The write path under load, through the stock client: THREADS threads each create a file, write 4096 bytes and
 * close it, again and again, all in one fresh directory (the case where creates meet on one parent), against a
 * running cluster (Canopy or HDFS). Prints files/s and the latency of a whole create+write+close; with
 * {@code LABEL=PID} arguments also the CPU per file of each such server process and its descendants over the
 * measured interval (warm-up excluded).
 *
 * <pre>WritePathLoad hdfs://127.0.0.1:PORT THREADS SECONDS [WARMUP_SECONDS] [LABEL=PID ...]</pre>
 */
public final class WritePathLoad {
  private static final int FILE_BYTES = 4096;
  /** Per thread; a 16-thread run of a minute at today's rates stays far below it. */
  private static final int MAX_SAMPLES_PER_THREAD = 1_000_000;

  private WritePathLoad() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: WritePathLoad URI THREADS SECONDS [WARMUP_SECONDS] [LABEL=PID ...]");
      System.exit(2);
    }
    URI uri = URI.create(args[0]);
    int threads = Integer.parseInt(args[1]);
    long seconds = Long.parseLong(args[2]);
    long warmupSeconds = args.length > 3 ? Long.parseLong(args[3]) : 5;
    Map<String, Long> servers = new LinkedHashMap<>();
    for (int i = 4; i < args.length; i++) {
      String[] labelAndPid = args[i].split("=", 2);
      servers.put(labelAndPid[0], Long.parseLong(labelAndPid[1]));
    }
    if (threads < 1 || seconds < 1 || warmupSeconds < 0) {
      throw new IllegalArgumentException("THREADS and SECONDS must be at least 1, WARMUP_SECONDS at least 0");
    }
    Configuration conf = new Configuration();
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      Path directory = new Path("/write-path-load/" + System.currentTimeMillis());
      fs.mkdirs(directory);
      run(fs, directory, threads, seconds, warmupSeconds, servers);
    }
  }

  private static void run(FileSystem fs, Path directory, int threads, long seconds, long warmupSeconds,
      Map<String, Long> servers) throws Exception {
    AtomicBoolean measuring = new AtomicBoolean(false);
    AtomicBoolean stop = new AtomicBoolean(false);
    AtomicLong failures = new AtomicLong();
    long[][] samples = new long[threads][];
    long[][] createSamples = new long[threads][];
    int[] counts = new int[threads];
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      samples[t] = new long[1024];
      createSamples[t] = new long[1024];
      workers.add(new Thread(() -> {
        byte[] data = new byte[FILE_BYTES];
        for (long n = 0; !stop.get(); n++) {
          long start = System.nanoTime();
          long created;
          try (OutputStream out = fs.create(new Path(directory, "t" + thread + "-" + n))) {
            created = System.nanoTime();
            out.write(data);
          } catch (IOException e) {
            failures.incrementAndGet();
            System.err.println("write failed: " + e);
            continue;
          }
          long latency = System.nanoTime() - start;
          if (measuring.get() && counts[thread] < MAX_SAMPLES_PER_THREAD) {
            if (counts[thread] == samples[thread].length) {
              samples[thread] = Arrays.copyOf(samples[thread], 2 * counts[thread]);
              createSamples[thread] = Arrays.copyOf(createSamples[thread], 2 * counts[thread]);
            }
            createSamples[thread][counts[thread]] = created - start;
            samples[thread][counts[thread]++] = latency;
          }
        }
      }, "write-path-load-" + t));
    }
    workers.forEach(Thread::start);
    Thread.sleep(warmupSeconds * 1000);
    Map<String, Long> cpuBefore = cpuNanos(servers);
    long begin = System.nanoTime();
    measuring.set(true);
    Thread.sleep(seconds * 1000);
    measuring.set(false);
    long elapsed = System.nanoTime() - begin;
    Map<String, Long> cpuAfter = cpuNanos(servers);
    stop.set(true);
    for (Thread worker : workers) {
      worker.join();
    }
    report(threads, samples, createSamples, counts, elapsed, failures.get(), cpuBefore, cpuAfter);
  }

  private static void report(int threads, long[][] samples, long[][] createSamples, int[] counts,
      long elapsedNanos, long failures, Map<String, Long> cpuBefore, Map<String, Long> cpuAfter) {
    LatencyStatistics latency = LatencyStatistics.ofNanos(merge(samples, counts));
    long total = latency.count();
    System.out.printf(Locale.ROOT, "threads %d: %d files in %.1f s = %.1f files/s, %s, %d failures%n", threads,
        total, elapsedNanos / 1e9, total / (elapsedNanos / 1e9), latency.describe(), failures);
    System.out.printf(Locale.ROOT, "  of which create(): %s%n",
        LatencyStatistics.ofNanos(merge(createSamples, counts)).describe());
    for (Map.Entry<String, Long> server : cpuAfter.entrySet()) {
      System.out.printf(Locale.ROOT, "  %s CPU: %.0f us per file%n", server.getKey(),
          total == 0 ? 0.0 : (server.getValue() - cpuBefore.get(server.getKey())) / 1000.0 / total);
    }
  }

  private static long[] merge(long[][] samples, int[] counts) {
    int total = 0;
    for (int count : counts) {
      total += count;
    }
    long[] all = new long[total];
    int offset = 0;
    for (int t = 0; t < samples.length; t++) {
      System.arraycopy(samples[t], 0, all, offset, counts[t]);
      offset += counts[t];
    }
    return all;
  }

  /** CPU time (user + system) so far of each labelled process and its live descendants. */
  private static Map<String, Long> cpuNanos(Map<String, Long> servers) {
    Map<String, Long> cpu = new LinkedHashMap<>();
    servers.forEach((label, pid) -> {
      long total = 0;
      for (long process : CpuPinning.withDescendants(pid)) {
        total += ProcessHandle.of(process).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos)
            .orElse(0L);
      }
      cpu.put(label, total);
    });
    return cpu;
  }
}

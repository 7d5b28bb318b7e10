package io.canopy.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Threads creating, writing, reading, renaming and deleting small files through one client, recording every
 * operation the client acknowledged and every failure (an exception or an unexpected answer). Creates never
 * overwrite, so a create that ran twice, or a rename or delete that ran twice, shows up as a failure.
 */
final class FailoverWorkload {
  private static final long BLOCK_SIZE = 64 * 1024;

  private final FileSystem fs;
  private final Path root;
  private final int threadCount;
  private final int filesPerThread;
  private final AtomicInteger operations = new AtomicInteger();
  private final Queue<String> failures = new ConcurrentLinkedQueue<>();
  /** Acknowledged files (after renames, without deleted ones) with their content. */
  private final Map<Path, byte[]> expected = new ConcurrentHashMap<>();
  private final List<Thread> threads = new ArrayList<>();

  FailoverWorkload(FileSystem fs, Path root, int threadCount, int filesPerThread) {
    this.fs = fs;
    this.root = root;
    this.threadCount = threadCount;
    this.filesPerThread = filesPerThread;
  }

  void start() {
    for (int t = 0; t < threadCount; t++) {
      int thread = t;
      Thread worker = new Thread(() -> run(thread), "failover-workload-" + t);
      worker.setDaemon(true);
      threads.add(worker);
      worker.start();
    }
  }

  /** Operations acknowledged so far. */
  int operations() {
    return operations.get();
  }

  /** Waits until {@code count} operations were acknowledged or every thread finished. */
  void awaitOperations(int count, long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (operations.get() < count && threads.stream().anyMatch(Thread::isAlive)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + operations.get() + " of " + count + " operations within " + timeoutMs
            + " ms; failures: " + failures);
      }
      Thread.sleep(10);
    }
  }

  void join(long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    for (Thread thread : threads) {
      thread.join(Math.max(1, deadline - System.currentTimeMillis()));
      if (thread.isAlive()) {
        throw new AssertionError(thread.getName() + " still running after " + timeoutMs + " ms; failures: "
            + failures);
      }
    }
  }

  List<String> failures() {
    return new ArrayList<>(failures);
  }

  int expectedFiles() {
    return expected.size();
  }

  /** Every acknowledged file is there, readable through {@code reader} with its content, and nothing else is. */
  List<String> verify(FileSystem reader) throws IOException {
    List<String> problems = new ArrayList<>();
    Map<Path, byte[]> wanted = new TreeMap<>(expected);
    for (int t = 0; t < threadCount; t++) {
      Path directory = new Path(root, "t" + t);
      if (!reader.exists(directory)) {
        continue;
      }
      for (FileStatus status : reader.listStatus(directory)) {
        Path path = Path.getPathWithoutSchemeAndAuthority(status.getPath());
        byte[] content = wanted.remove(path);
        if (content == null) {
          problems.add("unexpected " + path);
        } else if (!Arrays.equals(content, TestFiles.read(reader, path))) {
          problems.add("wrong content in " + path);
        }
      }
    }
    wanted.keySet().forEach(path -> problems.add("missing acknowledged " + path));
    return problems;
  }

  private void run(int thread) {
    Path directory = new Path(root, "t" + thread);
    List<Path> live = new ArrayList<>();
    for (int i = 0; i < filesPerThread; i++) {
      Path file = new Path(directory, "f" + i);
      byte[] data = TestFiles.randomBytes(500 + (i * 131) % 2000, thread * 1000L + i);
      if (!step("create " + file, () -> write(file, data))) {
        continue;
      }
      expected.put(file, data);
      live.add(file);
      step("read " + file, () -> {
        if (!Arrays.equals(data, TestFiles.read(fs, file))) {
          throw new IOException("read back different bytes");
        }
      });
      if (i % 3 == 2) {
        Path renamed = new Path(directory, "r" + i);
        if (step("rename " + file, () -> expectTrue(fs.rename(file, renamed)))) {
          expected.put(renamed, expected.remove(file));
          live.set(live.indexOf(file), renamed);
        }
      }
      if (i % 4 == 3 && live.size() >= 2) {
        Path victim = live.get(live.size() - 2);
        if (step("delete " + victim, () -> expectTrue(fs.delete(victim, false)))) {
          expected.remove(victim);
          live.remove(victim);
        }
      }
    }
  }

  private void write(Path file, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(file, false, 4096, (short) 3, BLOCK_SIZE)) {
      out.write(data);
    }
  }

  private static void expectTrue(boolean answer) throws IOException {
    if (!answer) {
      throw new IOException("answered false");
    }
  }

  private interface Step {
    void run() throws IOException;
  }

  private boolean step(String what, Step step) {
    try {
      step.run();
      operations.incrementAndGet();
      return true;
    } catch (IOException | RuntimeException | AssertionError e) {
      failures.add(what + ": " + e);
      return false;
    }
  }
}

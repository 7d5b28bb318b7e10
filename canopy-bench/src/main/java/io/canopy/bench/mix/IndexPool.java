package io.canopy.bench.mix;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed pool of daemon threads; {@link #forEachIndex} runs a task for 0..count-1 with at most {@code threads} at
 * a time, each thread claiming the next index, so no per-item future is queued however many items (a namespace of
 * millions of files). The first failure stops the claiming and is thrown, later ones suppressed in it.
 */
final class IndexPool implements AutoCloseable {
  /** Work on one index; may throw the I/O error that stops the whole run. */
  interface IndexTask {
    void run(int index) throws IOException;
  }

  private final int threads;
  private final String name;
  private final ExecutorService executor;

  /** {@code name} prefixes the threads' names and the interruption message. */
  IndexPool(int threads, String name) {
    this.threads = threads;
    this.name = name;
    AtomicInteger number = new AtomicInteger();
    this.executor = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, name + "-" + number.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  void forEachIndex(int count, IndexTask task) throws IOException {
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < Math.min(threads, count); i++) {
      futures.add(executor.submit(() -> {
        int index;
        while (!failed.get() && (index = next.getAndIncrement()) < count) {
          try {
            task.run(index);
          } catch (IOException | RuntimeException e) {
            failed.set(true);
            throw e;
          }
        }
        return null;
      }));
    }
    IOException first = null;
    for (Future<?> future : futures) {
      try {
        future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed.set(true);
        throw new InterruptedIOException("interrupted while the " + name + " threads ran");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (first == null) {
          first = cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
        } else {
          first.addSuppressed(cause);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}

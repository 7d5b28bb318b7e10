package io.canopy.metadata.ignite;

import io.canopy.metadata.StoreException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one store on which read-only batches run their scans side by side ({@link IgniteReadBatch}): at most
 * {@link #THREADS} scans at once for the whole store, the others queued. A scan's own time is bounded by the client's
 * operation timeout. Once the store is closed, a scan given runs in the caller's thread; one still queued at the close
 * is cancelled (its batch fails).
 */
final class IgniteScans implements AutoCloseable {
  /**
   * Scans in flight at most, for every transaction of the store together. Each mostly waits (for the cluster's safe
   * time, tens of milliseconds), and a read of a file sends three or four: 64 let about 400 reads a second through at
   * 40 ms a wait.
   */
  static final int THREADS = 64;

  /** One scan: a read of the batch, which stores its own value. */
  interface Scan {
    void run() throws StoreException;
  }

  /** A started scan. */
  static final class Running {
    private final Future<?> future;
    private final Scan inline;

    private Running(Future<?> future, Scan inline) {
      this.future = future;
      this.inline = inline;
    }

    /** Waits until the scan ends; throws what it threw. */
    void await() throws StoreException {
      if (inline != null) {
        inline.run();
        return;
      }
      try {
        future.get();
      } catch (java.util.concurrent.CancellationException e) {
        throw new StoreException("the store closed before a scan ran", e);
      } catch (InterruptedException e) {
        future.cancel(true);
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted while waiting for a scan", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof StoreException store) {
          throw store;
        }
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw new StoreException("a scan failed", cause);
      }
    }
  }

  private final ExecutorService threads;

  IgniteScans() {
    AtomicInteger number = new AtomicInteger();
    this.threads = Executors.newFixedThreadPool(THREADS, task -> {
      Thread thread = new Thread(task, "canopy-ignite-scan-" + number.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Starts {@code scan} on a scan thread (in the caller's thread at {@link Running#await()} once closed). */
  Running start(Scan scan) {
    try {
      return new Running(threads.submit(() -> {
        scan.run();
        return null;
      }), null);
    } catch (RejectedExecutionException e) {
      return new Running(null, scan);
    }
  }

  @Override
  public void close() {
    // scans still queued are cancelled, so that the batches waiting for them end (with an error) instead of waiting
    // for ever
    for (Runnable queued : threads.shutdownNow()) {
      if (queued instanceof Future<?> future) {
        future.cancel(false);
      }
    }
  }
}

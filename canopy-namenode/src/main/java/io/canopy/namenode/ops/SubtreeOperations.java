package io.canopy.namenode.ops;

import io.canopy.namenode.SubtreeSettings;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * This namenode's subtree operations (design 017): the directories they hold right now, and the one bounded pool of
 * {@link SubtreeSettings#threads()} threads their transactions run on, whatever the number of operations (the
 * namenode's connection pool counts them). Threads end after a minute idle, and all of them when the namenode closes.
 */
public final class SubtreeOperations implements AutoCloseable {
  private static final long IDLE_SECONDS = 60;
  /** How long closing waits for the subtree transactions still running. */
  static final long CLOSE_WAIT_SECONDS = 10;

  private final SubtreeSettings settings;
  private final Set<Long> running = ConcurrentHashMap.newKeySet();
  private final ThreadPoolExecutor pool;

  public SubtreeOperations(SubtreeSettings settings) {
    this.settings = settings;
    this.pool = new ThreadPoolExecutor(settings.threads(), settings.threads(), IDLE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), runnable -> {
          Thread thread = new Thread(runnable, "canopy-subtree-operation");
          thread.setDaemon(true);
          return thread;
        });
    pool.allowCoreThreadTimeOut(true);
  }

  public SubtreeSettings settings() {
    return settings;
  }

  ExecutorService pool() {
    return pool;
  }

  /**
   * Notes that this namenode runs the operation holding directory {@code rootId}; false when one of its operations
   * holds it already (one it ran under the id it had before it was evicted, and took over now).
   */
  boolean started(long rootId) {
    return running.add(rootId);
  }

  void ended(long rootId) {
    running.remove(rootId);
  }

  /** Whether an operation of this namenode holds directory {@code rootId} now. */
  public boolean isRunning(long rootId) {
    return running.contains(rootId);
  }

  /**
   * Stops the pool with the namenode (its RPC servers stopped first): no new transaction is accepted; the operations
   * stop before their next transaction (their handler threads were interrupted), and this waits up to
   * {@link #CLOSE_WAIT_SECONDS} for the transactions still running, so the namenode leaves the group after them
   * (once its descriptor is gone, others ignore its flags). The operations fail, leaving their flags for the cleaners
   * (design 017, "Failures").
   */
  /**
   * Stops the pool at once, as a crash would: transactions queued are cancelled (their operations' waits end), those
   * running are interrupted.
   */
  public void abort() {
    for (Runnable queued : pool.shutdownNow()) {
      if (queued instanceof Future<?> future) {
        future.cancel(false);
      }
    }
  }

  @Override
  public void close() {
    pool.shutdown();
    try {
      if (!pool.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}

package io.canopy.namenode.tx;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every operation (DESIGN s.6): begin, resolve and lock, execute on the per-transaction context, flush and
 * commit, then the post-commit effects. Transient failures (deadlock, lock timeout, lost connection, a path that
 * changed while being locked) re-run the whole operation after a bounded, jittered exponential backoff.
 */
public final class TransactionRunner {
  /** Sleeps between attempts; injected so tests run without real waits. */
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(TransactionRunner.class);
  private static final long BACKOFF_BASE_MS = 5;
  private static final long BACKOFF_CAP_MS = 1000;

  private final MetadataStore store;
  private final InodeHintCache hints;
  private final int maxAttempts;
  private final Random random;
  private final Sleeper sleeper;
  private final OperationMetrics metrics = new OperationMetrics();

  public TransactionRunner(MetadataStore store, InodeHintCache hints, int maxAttempts, Random random,
      Sleeper sleeper) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("transaction attempts must be at least 1, got " + maxAttempts);
    }
    this.store = store;
    this.hints = hints;
    this.maxAttempts = maxAttempts;
    this.random = random;
    this.sleeper = sleeper;
  }

  public <T> T run(Operation<T> operation) throws IOException {
    TransientStoreException last = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      try (Transaction transaction = store.begin(MetadataStore.NO_PARTITION_HINT)) {
        TransactionContext context = new TransactionContext(transaction, hints);
        context.acquire(operation.locks());
        T result = operation.execute(context);
        transaction.commit();
        context.committed();
        metrics.committed(operation.name(), transaction.roundTrips(), attempt);
        return result;
      } catch (TransientStoreException e) {
        if (e.outcomeUnknown() && !operation.idempotent()) {
          metrics.failed(operation.name(), attempt);
          throw new IOException("The connection to the metadata database broke while committing "
              + operation.name() + ": it may or may not have taken effect. Check before retrying.", e);
        }
        last = e;
        LOG.debug("{} attempt {} of {} failed transiently: {}", operation.name(), attempt, maxAttempts,
            e.getMessage());
        backoff(attempt);
      } catch (IOException | RuntimeException e) {
        metrics.failed(operation.name(), attempt);
        throw e;
      }
    }
    metrics.failed(operation.name(), maxAttempts);
    throw new IOException("Operation " + operation.name() + " did not complete after " + maxAttempts
        + " attempts (canopy.namenode.transaction.max-attempts); last error: " + last.getMessage(), last);
  }

  private void backoff(int attempt) throws InterruptedIOException {
    long cap = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS << Math.min(attempt, 20));
    long delay;
    synchronized (random) {
      delay = random.nextLong(cap + 1);
    }
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while backing off before retrying");
    }
  }

  public OperationMetrics metrics() {
    return metrics;
  }

  public InodeHintCache hints() {
    return hints;
  }
}

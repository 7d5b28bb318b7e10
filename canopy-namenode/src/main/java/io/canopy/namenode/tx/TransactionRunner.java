package io.canopy.namenode.tx;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.StoreUnavailableException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every operation (docs/references.md [Design] s.6): begin, resolve and lock, execute on the per-transaction
 * context, flush and commit, then the post-commit effects. Transient failures (deadlock, lock timeout, lost connection,
 * a path that changed while being locked) re-run the whole operation after a bounded, jittered exponential backoff.
 *
 * <p>{@link AtMostOnce} operations record their result in the retry cache inside their own transaction, keyed by
 * the client call (or, outside RPC, by a key of this runner's own). A client's retry, and a re-run after a commit
 * whose reply was lost, find the first result there instead of running again.
 */
public final class TransactionRunner {
  /** Sleeps between attempts; injected so tests run without real waits. */
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(TransactionRunner.class);
  private static final long BACKOFF_BASE_MS = 5;
  private static final long BACKOFF_CAP_MS = 1000;
  /**
   * Runs of one call that found the namespace changed between resolving its paths and locking them (another
   * operation committed in between: progress elsewhere, not a failure of the database). They do not use up the
   * attempts, which count the database's transient failures; under a storm of changes to the same directories ten
   * attempts were not always enough (a rename lost its race ten times in a row). Bounded here, and by
   * {@link #CONFLICT_WAIT_MS}. Runs refused a lock by an engine that does not queue lock requests
   * ({@link LockConflictException}) count here too.
   */
  static final int MAX_CONFLICTS = 64;
  /** How long one call keeps re-running on changed paths or refused locks before the client is told to retry. */
  static final long CONFLICT_WAIT_MS = 20_000;
  /**
   * An attempt that held its database locks this long (from its lock round trip to its transaction's end) is logged
   * with its operation and paths: every writer of those rows waited for it (or, on an engine that refuses held locks,
   * was refused until it ended), so it names the cause of a stall.
   */
  static final long LONG_TRANSACTION_MS = 5_000;
  /** {@link #watchSubtreeLocks}'s wait until the namenode configures it. */
  static final long DEFAULT_SUBTREE_WAIT_MS = 5000;

  private final MetadataStore store;
  private final InodeHintCache hints;
  private final int maxAttempts;
  private final Random random;
  private final Sleeper sleeper;
  private final LongSupplier clock;
  private final long retryCacheExpiryMs;
  /** The rows of subtrees all operations hold at once ({@link TransactionContext#holdSubtreeRows}). */
  private final SubtreeRows subtreeRows;
  /** Where row locks queue in front of an engine that refuses held locks at once ({@link LocalLockQueue}). */
  private final LocalLockQueue lockQueue;
  /** Keys calls that do not come from RPC: an identity, not a source of behaviour, so not seeded. */
  private final String ownClientId = "namenode-" + UUID.randomUUID();
  private final AtomicInteger ownCallIds = new AtomicInteger();
  private final OperationMetrics metrics = new OperationMetrics();
  /** Whether a namenode holding a subtree lock is alive (design 017): all are, until the namenode says how to tell. */
  private volatile LongPredicate subtreeOwnerAlive = id -> true;
  /** How long an operation meeting a live subtree lock waits for it before the client is told to retry. */
  private volatile long subtreeWaitMs = DEFAULT_SUBTREE_WAIT_MS;

  public TransactionRunner(MetadataStore store, InodeHintCache hints, int maxAttempts, Random random,
      Sleeper sleeper) {
    this(store, hints, maxAttempts, random, sleeper, System::currentTimeMillis,
        NameNodeConfig.RETRY_CACHE_EXPIRY_MS_DEFAULT,
        NameNodeConfig.subtreeMaxRows(new Configuration(false), Runtime.getRuntime().maxMemory()));
  }

  public TransactionRunner(MetadataStore store, InodeHintCache hints, int maxAttempts, Random random,
      Sleeper sleeper, LongSupplier clock, long retryCacheExpiryMs, long subtreeMaxRows) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("transaction attempts must be at least 1, got " + maxAttempts);
    }
    if (retryCacheExpiryMs <= 0) {
      throw new IllegalArgumentException("retry cache expiry must be positive, got " + retryCacheExpiryMs);
    }
    this.store = store;
    this.hints = hints;
    this.maxAttempts = maxAttempts;
    this.random = random;
    this.sleeper = sleeper;
    this.clock = clock;
    this.retryCacheExpiryMs = retryCacheExpiryMs;
    this.subtreeRows = new SubtreeRows(subtreeMaxRows);
    this.lockQueue = store.queuesLockRequests() ? LocalLockQueue.NONE
        : new LocalLockQueue(LocalLockQueue.DEFAULT_WAIT_MS);
  }

  public <T> T run(Operation<T> operation) throws IOException {
    return run(operation, null);
  }

  /** Runs {@code operation} for the client call {@code call} (null outside RPC). */
  public <T> T run(Operation<T> operation, ClientCall call) throws IOException {
    long startNanos = System.nanoTime();
    AtMostOnce<T> atMostOnce = operation instanceof AtMostOnce<T> recorded ? recorded : null;
    RetryKey key = null;
    if (atMostOnce != null) {
      key = call != null ? call.key() : new RetryKey(ownClientId, ownCallIds.incrementAndGet());
      if (call != null && call.retryCount() > 0) {
        Recorded<T> first = firstResult(atMostOnce, key);
        if (first != null) {
          metrics.answeredFromRetryCache(operation.name());
          return first.value();
        }
      }
    }
    boolean maybeCommitted = false;
    TransientStoreException last = null;
    SubtreeWait subtreeWait = null;
    ConflictRuns conflicts = new ConflictRuns();
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      TransactionContext context = null;
      LockHolding holding = new LockHolding();
      // The queue's locks are given back after the transaction ends, and before any backoff below. A read-only
      // transaction takes no row lock that could be refused, so it does not queue.
      try (holding;
          LocalLockQueue.Held queued = operation.readOnly() ? LocalLockQueue.NONE.open() : lockQueue.open();
          Transaction transaction = operation.readOnly() ? store.beginReadOnly() : store.begin()) {
        context = new TransactionContext(transaction, hints, subtreeRows, operation.name(),
            subtreeWait == null ? NO_DEAD_OWNERS : subtreeWait.flags(), queued);
        context.acquire(operation.locks());
        holding.locked();
        T result;
        try {
          result = operation.execute(context);
        } catch (CommitThenFail partial) {
          // the work before the failure stays (HDFS's mkdirs -p keeps the parents it made); no retry-cache entry:
          // a retry runs again and fails the same way
          transaction.commit();
          context.committed();
          metrics.committed(operation.name(), transaction.roundTrips(), transaction.statements(),
              attempt + conflicts.count(), System.nanoTime() - startNanos);
          throw new CommittedFailure(partial.failure());
        }
        if (atMostOnce != null) {
          transaction.retryCache().insert(new RetryEntry(key, operation.name(), atMostOnce.encodeResult(result),
              clock.getAsLong() + retryCacheExpiryMs));
        }
        transaction.commit();
        context.committed();
        metrics.committed(operation.name(), transaction.roundTrips(), transaction.statements(),
            attempt + conflicts.count(), System.nanoTime() - startNanos);
        return result;
      } catch (CommittedFailure done) {
        throw done.failure;
      } catch (SubtreeLockedException held) {
        // waiting for another operation is no failed attempt: the wait is bounded by time instead
        if (subtreeWait == null) {
          subtreeWait = new SubtreeWait(clock.getAsLong() + subtreeWaitMs);
        }
        subtreeWait.waitFor(operation.name(), held);
        attempt--;
      } catch (StalePathException changed) {
        // Another operation changed a path between our resolving and locking it: re-run on the namespace as it is
        // now (the hints are repaired), without using up an attempt, a bounded number of times.
        if (conflicts.spent()) {
          metrics.failed(operation.name(), attempt + conflicts.count() - 1);
          // the message names paths and inode ids only: no database error is hidden behind it
          LOG.warn("{} gave up after {} runs that found their paths changed (last: {})", operation.name(),
              conflicts.count(), changed.getMessage());
          throw new RetriableException(operation.name() + ": the namespace kept changing under it (" + conflicts.count()
              + " runs found their paths changed; last: " + changed.getMessage() + ")"
              + (maybeCommitted ? "; one attempt whose commit reply was lost may have taken effect" : "")
              + "; retry the call");
        }
        LOG.debug("{} re-runs after conflict {}: {}", operation.name(), conflicts.count(), changed.getMessage());
        attempt--;
        backoff(conflicts.count());
      } catch (LockConflictException refused) {
        // An engine that refuses a held lock at once instead of queueing the request (Ignite's wait-die): re-running
        // after a backoff is its lock wait, bounded by time and count as re-runs on changed paths are, and not one of
        // the attempts, which count the database's failures (four creates in one directory, each holding it
        // exclusively, made one of them lose ten attempts in a row, design 020). Nothing of the run took effect.
        if (conflicts.spent()) {
          metrics.failed(operation.name(), attempt + conflicts.count() - 1);
          RetriableException busy = new RetriableException(operation.name() + " kept meeting other operations' "
              + "locks (" + conflicts.count() + " runs were refused a lock; last: " + refused.getMessage() + ")"
              + (maybeCommitted ? "; one attempt whose commit reply was lost may have taken effect" : "")
              + "; retry the call");
          busy.initCause(refused);
          throw busy;
        }
        LOG.debug("{} re-runs after lock conflict {}: {}", operation.name(), conflicts.count(), refused.getMessage());
        attempt--;
        backoff(conflicts.count());
      } catch (TransientStoreException e) {
        // A database that does not answer is not asked again here: each attempt would hold this handler for the
        // whole timeout. The client is told to retry (its retry of an at-most-once call finds the retry cache).
        boolean unavailable = e instanceof StoreUnavailableException;
        if (e.outcomeUnknown()) {
          if (atMostOnce != null) {
            Recorded<T> first = unavailable ? null : firstResultKeeping(atMostOnce, key, e);
            if (first != null) {
              metrics.answeredFromRetryCache(operation.name());
              return first.value(); // it did commit: the reply was lost, not the work
            }
            maybeCommitted = true; // not visible yet; a re-run that collides with it finds it below
          } else if (!operation.idempotent()) {
            metrics.failed(operation.name(), attempt + conflicts.count());
            throw new IOException("The connection to the metadata database broke while committing "
                + operation.name() + ": it may or may not have taken effect. Check before retrying.", e);
          }
        }
        if (unavailable) {
          metrics.failed(operation.name(), attempt + conflicts.count());
          throw databaseUnavailable(operation.name(), e);
        }
        last = e;
        LOG.debug("{} attempt {} of {} failed transiently: {}", operation.name(), attempt, maxAttempts,
            e.getMessage());
        try {
          backoff(attempt);
        } catch (InterruptedIOException interrupted) {
          interrupted.addSuppressed(e);
          throw interrupted;
        }
      } catch (IOException | RuntimeException e) {
        // A call that may have run before (a client retry, or a commit whose reply was lost) and now fails, e.g.
        // on the retry-cache key or because its own first run already created the file, answers the first result.
        boolean mayHaveRunBefore = maybeCommitted || call != null && call.retryCount() > 0
            || e instanceof StoreException;
        if (atMostOnce != null && mayHaveRunBefore && !(e instanceof RuntimeException)) {
          Recorded<T> first = firstResultKeeping(atMostOnce, key, e);
          if (first != null) {
            metrics.answeredFromRetryCache(operation.name());
            return first.value();
          }
        }
        metrics.failed(operation.name(), attempt + conflicts.count());
        throw e;
      } finally {
        if (context != null) {
          context.releaseSubtreeRows(); // what the attempt read is garbage now, committed or not
        }
        long held = holding.heldMs();
        if (held >= LONG_TRANSACTION_MS && !operation.readOnly()) {
          LockRequest request = operation.locks();
          LOG.warn("{} of {} held its database locks for {} ms (run {}): every other writer of those rows waited "
              + "or was refused that long", operation.name(), request.hasInode() ? "inode " + request.inodeId()
              : request.paths().stream().map(lock -> lock.path().toString()).toList(), held,
              attempt + conflicts.count());
        }
      }
    }
    metrics.failed(operation.name(), maxAttempts + conflicts.count());
    // Every attempt failed transiently (lock conflicts, a database node lost while its partitions move): the call
    // itself may succeed later, so the client is told to retry, as for a database that does not answer. HDFS clients
    // of a nameservice retry it after a backoff; an at-most-once call's retry finds its first result if it committed.
    RetriableException exhausted = new RetriableException("Operation " + operation.name() + " did not complete after "
        + maxAttempts + " attempts (canopy.namenode.transaction.max-attempts)"
        + (maybeCommitted ? ", and one attempt whose commit reply was lost may have taken effect" : "")
        + "; last error: " + last.getMessage() + ". Retry the call.");
    exhausted.initCause(last);
    throw exhausted;
  }

  /**
   * Hadoop's {@link RetriableException}, which HDFS clients with failover retry after a backoff (and others report),
   * naming the operation and the database that did not answer.
   */
  private RetriableException databaseUnavailable(String operationName, TransientStoreException cause) {
    String outcome = cause.outcomeUnknown() ? " may not have completed: " : " was not completed: ";
    RetriableException retriable = new RetriableException(operationName + outcome + cause.getMessage()
        + ". Database: " + store.describe() + ". Retry the call.");
    retriable.initCause(cause);
    return retriable;
  }

  /** {@link #firstResult}, keeping {@code original} (the failure that made us look) if the lookup itself fails. */
  private <T> Recorded<T> firstResultKeeping(AtMostOnce<T> operation, RetryKey key, Exception original)
      throws IOException {
    try {
      return firstResult(operation, key);
    } catch (IOException | RuntimeException lookup) {
      lookup.addSuppressed(original);
      throw lookup;
    }
  }

  /** Carries a {@link CommitThenFail}'s failure past this runner's own failure handling, its work committed. */
  private static final class CommittedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient IOException failure;

    CommittedFailure(IOException failure) {
      super(failure.getMessage(), failure, false, false);
      this.failure = failure;
    }
  }

  /** A result found in the retry cache (which may be null, e.g. for rename2). */
  private record Recorded<T>(T value) {
  }

  /**
   * The recorded result of an earlier run of the call {@code key}, read in its own read-only transaction, or null
   * when there is none.
   */
  private <T> Recorded<T> firstResult(AtMostOnce<T> operation, RetryKey key) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try (Transaction transaction = store.beginReadOnly()) {
        Optional<RetryEntry> entry = transaction.retryCache().get(key);
        transaction.commit();
        if (entry.isEmpty()) {
          return null;
        }
        if (!entry.get().operation().equals(operation.name())) {
          throw new IOException("Retried call " + key.callId() + " of client " + key.clientId() + " was a "
              + entry.get().operation() + ", not a " + operation.name());
        }
        return new Recorded<>(operation.decodeResult(entry.get().result()));
      } catch (TransientStoreException e) {
        if (e instanceof StoreUnavailableException) {
          throw databaseUnavailable(operation.name(), e);
        }
        if (attempt >= maxAttempts) {
          throw e;
        }
        backoff(attempt);
      }
    }
  }

  /**
   * Tells the runner how to find out whether the namenode holding a subtree lock is alive, and how long an operation
   * meeting a live one waits before its client is told to retry (design 017).
   */
  public void watchSubtreeLocks(LongPredicate ownerAlive, long waitMs) {
    if (waitMs < 0) {
      throw new IllegalArgumentException("subtree lock wait must not be negative, got " + waitMs);
    }
    this.subtreeOwnerAlive = ownerAlive;
    this.subtreeWaitMs = waitMs;
  }

  private static final SubtreeFlags NO_DEAD_OWNERS = new SubtreeFlags(Set.of());

  /** One operation's wait for subtree locks it met: until a deadline, ignoring the locks of dead namenodes. */
  private final class SubtreeWait {
    private final long deadlineMs;
    private final Set<Long> deadOwners = new HashSet<>();
    private int waits;

    SubtreeWait(long deadlineMs) {
      this.deadlineMs = deadlineMs;
    }

    SubtreeFlags flags() {
      return new SubtreeFlags(deadOwners);
    }

    void waitFor(String operationName, SubtreeLockedException held) throws IOException {
      if (!subtreeOwnerAlive.test(held.owner())) {
        // its namenode is gone and its operation with it: what it left is consistent, so the flag is ignored
        LOG.info("{}: ignoring the subtree lock on {} of namenode {}, which is dead", operationName,
            held.lockedPath(), held.owner());
        deadOwners.add(held.owner());
        return;
      }
      if (clock.getAsLong() >= deadlineMs) {
        metrics.failed(operationName, waits + 1);
        RetriableException retry = new RetriableException(operationName + ": " + held.getMessage()
            + " (a delete, move or attribute change of a large directory); waited " + subtreeWaitMs
            + " ms, retry later");
        retry.initCause(held);
        throw retry;
      }
      backoff(++waits);
    }
  }

  /** How long one attempt held its database locks: from its lock round trip to the end of its transaction. */
  private final class LockHolding implements AutoCloseable {
    private long locked = -1;
    private long ended = -1;

    void locked() {
      locked = clock.getAsLong();
    }

    /** Closed after the transaction (the resources close in reverse order), before any backoff. */
    @Override
    public void close() {
      ended = clock.getAsLong();
    }

    long heldMs() {
      return locked < 0 || ended < 0 ? 0 : ended - locked;
    }
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

  /** The rows of subtrees this namenode's operations hold ({@link TransactionContext#holdSubtreeRows}). */
  public SubtreeRows subtreeRows() {
    return subtreeRows;
  }

  public OperationMetrics metrics() {
    return metrics;
  }

  public InodeHintCache hints() {
    return hints;
  }

  /**
   * Re-runs of one call after other operations' progress (paths changed under it, locks refused at once), which do
   * not use up its attempts: bounded by {@link #MAX_CONFLICTS} and {@link #CONFLICT_WAIT_MS} from the first.
   */
  private final class ConflictRuns {
    private int count;
    private long deadline;

    int count() {
      return count;
    }

    /** Counts one more run; true when the budget is spent and the client is to be told to retry. */
    boolean spent() {
      if (count == 0) {
        deadline = clock.getAsLong() + CONFLICT_WAIT_MS;
      }
      count++;
      return count >= MAX_CONFLICTS || clock.getAsLong() >= deadline;
    }
  }
}

package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;

/**
 * The Ignite side of one DAL transaction (design 020): a read-write transaction begun at the first read that needs it,
 * the lock modes mapped onto Ignite's, and the round trips and requests counted.
 *
 * <ul>
 *   <li>{@link LockMode#NONE}: outside the transaction, lock-free: a direct read of the latest committed row per key,
 *       and queries as Ignite's implicit read-only transactions at the present time. A read-only transaction reads
 *       every row this way: it never waits for writers and never contacts the store at commit, but the rows of one
 *       batch are each the latest committed, not one snapshot (Ignite's own read-only transactions read the past:
 *       design 020 measured 100 of 100 writes through another node missed).</li>
 *   <li>{@link LockMode#SHARED}: the read inside the transaction (shared row locks, also on absent keys).</li>
 *   <li>{@link LockMode#EXCLUSIVE}: the shared read, then the rows found written back unchanged, which upgrades their
 *       locks (Ignite has no locking read for update).</li>
 * </ul>
 * A conflicting lock request by the younger transaction fails at once (wait-die), as a transient error.
 */
final class IgniteSession {
  private final IgniteClient client;
  private final boolean readOnly;
  /** How long Ignite lets the read-write transaction run ({@link IgniteSettings#TRANSACTION_TIMEOUT_MS}). */
  private final long timeoutMs;
  private Transaction transaction;
  /** When the read-write transaction began ({@link System#nanoTime}), for telling its timeout from other ends. */
  private long beganNanos;
  private int roundTrips;
  private int statements;

  IgniteSession(IgniteClient client, boolean readOnly, long timeoutMs) {
    this.client = client;
    this.readOnly = readOnly;
    this.timeoutMs = timeoutMs;
  }

  boolean readOnly() {
    return readOnly;
  }

  IgniteClient client() {
    return client;
  }

  /** The lock a read really takes in this transaction. */
  LockMode effective(LockMode lock) {
    return readOnly ? LockMode.NONE : lock;
  }

  /** The read-write transaction, begun on first use. */
  Transaction transaction() {
    if (transaction == null) {
      transaction = client.transactions().begin(new TransactionOptions().timeoutMillis(timeoutMs));
      beganNanos = System.nanoTime();
    }
    return transaction;
  }

  Tuple get(RecordView<Tuple> view, Tuple key, LockMode requested, String what) throws StoreException {
    List<Tuple> rows = getAll(view, List.of(key), requested, what);
    return rows.get(0);
  }

  /** Rows of {@code keys} in their order, null where absent. */
  List<Tuple> getAll(RecordView<Tuple> view, List<Tuple> keys, LockMode requested, String what)
      throws StoreException {
    if (keys.isEmpty()) {
      return List.of();
    }
    LockMode lock = effective(requested);
    try {
      if (lock == LockMode.NONE) {
        return unlockedReads(view, keys);
      }
      List<Tuple> rows = new ArrayList<>(view.getAll(transaction(), keys));
      count(1);
      if (lock == LockMode.EXCLUSIVE) {
        lockExclusively(view, rows, what);
      }
      return rows;
    } catch (RuntimeException e) {
      throw translate(what, e, false);
    }
  }

  /**
   * Unlocked reads: one direct read of the latest committed row per key, all sent at once (one round trip). A
   * {@code getAll} without a transaction would not do: the thin client runs it as an implicit read-write
   * transaction, which takes locks and waits behind writers.
   */
  private List<Tuple> unlockedReads(RecordView<Tuple> view, List<Tuple> keys) {
    List<CompletableFuture<Tuple>> reads = new ArrayList<>(keys.size());
    for (Tuple key : keys) {
      reads.add(view.getAsync(null, key));
    }
    List<Tuple> rows = new ArrayList<>(keys.size());
    for (CompletableFuture<Tuple> read : reads) {
      rows.add(read.join());
    }
    count(keys.size());
    return rows;
  }

  /** Upgrades the shared locks of {@code rows} (null entries skipped) by writing them back unchanged. */
  void lockExclusively(RecordView<Tuple> view, List<Tuple> rows, String what) throws StoreException {
    List<Tuple> present = new ArrayList<>();
    for (Tuple row : rows) {
      if (row != null) {
        present.add(row);
      }
    }
    if (present.isEmpty()) {
      return;
    }
    if (readOnly) {
      return;
    }
    try {
      view.upsertAll(transaction(), present);
      count(1);
    } catch (RuntimeException e) {
      throw translate(what, e, false);
    }
  }

  /**
   * Runs a query: with a lock, inside the transaction (scans take range locks there); without one, outside it, where
   * Ignite runs it as a read-only transaction at the present time (it waits for the cluster's safe time to reach
   * it, and takes no lock).
   */
  List<SqlRow> query(String sql, LockMode requested, String what, Object... arguments) throws StoreException {
    return query(sql, requested, false, what, arguments);
  }

  /**
   * Runs a query; {@code coveredByInodeLock}: its rows are a file's or directory's own rows (blocks, replicas,
   * attributes, quota), which the DAL locks implicitly through their inode. Such a query runs inside a read-write
   * transaction even when asked for no lock: outside, as an implicit read-only transaction, it waits for the
   * cluster's safe time (Ignite's default sync interval of 250 ms made that about a quarter of a second each; canopy
   * up's clusters sync every 20 ms), while inside it takes a few milliseconds; the shared range
   * locks it takes are on rows the operation's inode lock keeps other writers from, or their index neighbours.
   * Directory listings are not covered: an unlocked listing must never wait for writers (the DAL contract).
   */
  List<SqlRow> query(String sql, LockMode requested, boolean coveredByInodeLock, String what, Object... arguments)
      throws StoreException {
    List<SqlRow> rows = new ArrayList<>();
    boolean unlocked = effective(requested) == LockMode.NONE;
    Transaction in = readOnly || unlocked && !coveredByInodeLock ? null : transaction();
    try (ResultSet<SqlRow> result = client.sql().execute(in, sql, arguments)) {
      result.forEachRemaining(rows::add);
    } catch (RuntimeException e) {
      throw translate(what, e, false);
    }
    count(1);
    return rows;
  }

  /** Runs a data-changing statement inside the transaction. */
  void execute(String sql, String what, Object... arguments) throws StoreException {
    try (ResultSet<SqlRow> result = client.sql().execute(transaction(), sql, arguments)) {
      result.affectedRows();
    } catch (RuntimeException e) {
      throw translate(what, e, false);
    }
    count(1);
  }

  /** Counts a request that travelled on its own round trip (from a read-only batch's scan threads too). */
  synchronized void count(int requests) {
    roundTrips += 1;
    statements += requests;
  }

  synchronized int roundTrips() {
    return roundTrips;
  }

  synchronized int statements() {
    return statements;
  }

  /**
   * {@link IgniteErrors#translate}, except for a transaction that Ignite ended because it ran past its timeout: running
   * the operation again would run as long, so that is no transient error but one that names the limit.
   */
  StoreException translate(String what, RuntimeException error, boolean committing) {
    long ranMs = beganNanos == 0 ? 0 : (System.nanoTime() - beganNanos) / 1_000_000;
    if (beganNanos != 0 && ranMs >= timeoutMs && IgniteErrors.endedTransaction(error)) {
      return new StoreException(what + ": the database transaction ran " + ranMs + " ms, past Ignite's limit of "
          + timeoutMs + " ms (" + IgniteSettings.TRANSACTION_TIMEOUT_MS + "), and was rolled back; an operation this"
          + " long on this engine needs a higher limit or a smaller " + SUBTREE_THRESHOLD_KEY + " ("
          + IgniteErrors.describe(error) + ")", error);
    }
    return IgniteErrors.translate(what, error, committing);
  }

  /** The namenode's key bounding the inodes of one transaction (named here only, not read: it is the namenode's). */
  private static final String SUBTREE_THRESHOLD_KEY = "canopy.namenode.subtree.protocol-threshold";

  void commit() throws StoreException {
    if (transaction == null) {
      return;
    }
    Transaction ending = transaction;
    transaction = null;
    try {
      ending.commit();
      count(1);
    } catch (RuntimeException e) {
      rollbackQuietly(ending);
      throw translate("commit", e, true);
    }
  }

  void rollback() {
    if (transaction != null) {
      Transaction ending = transaction;
      transaction = null;
      rollbackQuietly(ending);
    }
  }

  private static void rollbackQuietly(Transaction ending) {
    try {
      ending.rollback();
    } catch (RuntimeException ignored) {
      // already rolled back by the cluster (a lock conflict ends the transaction), or the connection is gone: the
      // cluster rolls an abandoned transaction back itself
    }
  }
}


package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.spi.WriteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;

/**
 * The rows of one Ignite table as the DAL sees them: reads with a lock mode through the session, writes buffered in a
 * {@link WriteBuffer} and flushed at commit as blind deletes, deletes, inserts and updates, in that order.
 *
 * @param <K> the DAL's primary key of the table
 * @param <R> the DAL's row
 */
final class IgniteRows<K, R> implements IgniteBufferedTable {
  /** How the table's rows look in Ignite. */
  interface Mapping<K, R> {
    Tuple key(K key);

    Tuple row(R row);

    R read(Tuple row);

    K keyOf(R row);
  }

  /** What an insert of a key that exists does. */
  enum OnExisting {
    /** The commit fails (a primary-key violation). */
    FAIL,
    /** The insert replaces the row (an upsert). */
    REPLACE,
    /** The existing row stays. */
    KEEP
  }

  private record BlindDelete(String where, Object[] arguments) {
  }

  private final String table;
  private final IgniteSession session;
  private final RecordView<Tuple> view;
  private final Mapping<K, R> mapping;
  private final OnExisting onExisting;
  private final WriteBuffer<K, R> writes;
  private final List<BlindDelete> blindDeletes = new ArrayList<>();

  IgniteRows(String table, IgniteClient client, IgniteSession session, Mapping<K, R> mapping, OnExisting onExisting) {
    this.table = table;
    this.session = session;
    this.view = IgniteViews.of(client, table);
    this.mapping = mapping;
    this.onExisting = onExisting;
    this.writes = new WriteBuffer<>(table);
  }

  Optional<R> get(K key, LockMode lock) throws StoreException {
    Tuple row = session.get(view, mapping.key(key), lock, "reading " + table + " " + key);
    return row == null ? Optional.empty() : Optional.of(mapping.read(row));
  }

  /** Rows of the keys that exist, in the keys' order. */
  Map<K, R> getAll(Collection<K> keys, LockMode lock) throws StoreException {
    List<Tuple> tuples = new ArrayList<>(keys.size());
    for (K key : keys) {
      tuples.add(mapping.key(key));
    }
    Map<K, R> found = new LinkedHashMap<>();
    for (Tuple row : session.getAll(view, tuples, lock, "reading " + keys.size() + " rows of " + table)) {
      if (row != null) {
        R read = mapping.read(row);
        found.put(mapping.keyOf(read), read);
      }
    }
    return found;
  }

  /**
   * {@code SELECT * FROM table <clauses>} inside the transaction (scans take range locks there) over the index
   * {@code index} (forced: on a small table the planner would scan the whole table, which inside a transaction locks
   * all of it; design 020), the rows then locked exclusively when asked.
   */
  List<R> scan(String index, String clauses, LockMode lock, Object... arguments) throws StoreException {
    return scan(false, index, clauses, lock, arguments);
  }

  /**
   * The same for rows of given inodes (their blocks, replicas, attributes, quota), which the DAL locks through their
   * inode: in a read-write transaction inside it even unlocked ({@link IgniteSession#query(String, LockMode, boolean,
   * String, Object...)}).
   */
  List<R> scanOfInodes(String index, String clauses, LockMode lock, Object... arguments) throws StoreException {
    return scan(true, index, clauses, lock, arguments);
  }

  /**
   * The same for a table whose writers all hold one lock the reading transaction holds too (the namenodes table under
   * the election row's): in a read-write transaction inside it even unlocked, where a scan takes a few milliseconds
   * instead of waiting for the cluster's safe time outside it (design 020).
   */
  List<R> scanUnderHeldLock(String index, String clauses, LockMode lock, Object... arguments) throws StoreException {
    return scan(true, index, clauses, lock, arguments);
  }

  private List<R> scan(boolean ofInodes, String index, String clauses, LockMode lock, Object... arguments)
      throws StoreException {
    List<SqlRow> rows = session.query("SELECT /*+ FORCE_INDEX(" + index + ") */ * FROM " + table + " " + clauses,
        lock, ofInodes, "scanning " + table, arguments);
    List<R> read = new ArrayList<>(rows.size());
    List<Tuple> tuples = new ArrayList<>(rows.size());
    for (SqlRow row : rows) {
      R value = mapping.read(row);
      read.add(value);
      tuples.add(mapping.row(value));
    }
    if (!session.readOnly() && lock == LockMode.EXCLUSIVE) {
      session.lockExclusively(view, tuples, "locking rows of " + table);
    }
    return read;
  }

  void insert(K key, R row) {
    writes.insert(key, row);
  }

  void put(K key, R row) {
    writes.put(key, row);
  }

  void update(K key, R row) {
    writes.update(key, row);
  }

  void delete(K key) {
    writes.delete(key);
  }

  /**
   * Deletes at commit every row matching {@code where} (SQL over the table's columns) without reading it, before the
   * buffered writes; buffered writes of rows matching {@code buffered} are dropped, so that what was written earlier
   * goes and what is written later stays.
   */
  void deleteWhere(String where, Predicate<R> buffered, Object... arguments) {
    for (R row : writes.inserts()) {
      if (buffered.test(row)) {
        writes.delete(mapping.keyOf(row));
      }
    }
    for (R row : writes.updates()) {
      if (buffered.test(row)) {
        writes.delete(mapping.keyOf(row));
      }
    }
    blindDeletes.add(new BlindDelete(where, arguments));
  }

  @Override
  public boolean isEmpty() {
    return writes.isEmpty() && blindDeletes.isEmpty();
  }

  @Override
  public void flush() throws StoreException {
    if (isEmpty()) {
      return;
    }
    for (BlindDelete delete : blindDeletes) {
      session.execute("DELETE FROM " + table + " WHERE " + delete.where(), "deleting rows of " + table,
          delete.arguments());
    }
    blindDeletes.clear();
    List<Tuple> deletes = tuples(writes.deletes(), mapping::key);
    List<Tuple> inserts = tuples(writes.inserts(), mapping::row);
    List<Tuple> updates = tuples(writes.updates(), mapping::row);
    writes.clear();
    try {
      if (!deletes.isEmpty()) {
        view.deleteAll(session.transaction(), deletes);
        session.count(1);
      }
      if (!inserts.isEmpty()) {
        if (onExisting == OnExisting.REPLACE) {
          view.upsertAll(session.transaction(), inserts);
        } else {
          List<Tuple> refused = view.insertAll(session.transaction(), inserts);
          if (!refused.isEmpty() && onExisting == OnExisting.FAIL) {
            throw new StoreException("insert into " + table + " of " + mapping.keyOf(mapping.read(refused.get(0)))
                + ": the key exists");
          }
        }
        session.count(1);
      }
      if (!updates.isEmpty()) {
        view.upsertAll(session.transaction(), updates);
        session.count(1);
      }
    } catch (RuntimeException e) {
      throw session.translate("writing " + table, e, false);
    }
  }

  private static <T> List<Tuple> tuples(List<T> values, Function<T, Tuple> map) {
    List<Tuple> tuples = new ArrayList<>(values.size());
    for (T value : values) {
      tuples.add(map.apply(value));
    }
    return tuples;
  }

  @Override
  public void clear() {
    writes.clear();
    blindDeletes.clear();
  }
}

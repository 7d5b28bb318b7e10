package io.canopy.metadata.spi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Buffered writes of one table inside one transaction, collapsed per primary key so that a flush can send
 * deletes, then inserts, then updates, each as one batch, and still mean what the caller did in order:
 * insert-then-delete vanishes, delete-then-insert (a move onto a freed key) stays, repeated updates keep the last.
 *
 * @param <K> primary key
 * @param <R> row
 */
public final class WriteBuffer<K, R> {
  private enum Kind { INSERT, UPDATE, DELETE, DELETE_THEN_INSERT }

  private record Pending<K, R>(Kind kind, K key, R row) {
  }

  private final String table;
  private final Map<K, Pending<K, R>> pending = new LinkedHashMap<>();

  public WriteBuffer(String table) {
    this.table = table;
  }

  public void insert(K key, R row) {
    Pending<K, R> previous = pending.get(key);
    if (previous == null) {
      pending.put(key, new Pending<>(Kind.INSERT, key, row));
    } else if (previous.kind == Kind.DELETE) {
      pending.put(key, new Pending<>(Kind.DELETE_THEN_INSERT, key, row));
    } else {
      throw new IllegalStateException(table + ": insert of key " + key + " that this transaction already wrote");
    }
  }

  /** Insert or replace: the row exists with this value after the flush, whatever existed before. */
  public void put(K key, R row) {
    Pending<K, R> previous = pending.get(key);
    if (previous == null) {
      pending.put(key, new Pending<>(Kind.INSERT, key, row));
    } else if (previous.kind == Kind.DELETE) {
      pending.put(key, new Pending<>(Kind.DELETE_THEN_INSERT, key, row));
    } else {
      pending.put(key, new Pending<>(previous.kind, key, row));
    }
  }

  public void update(K key, R row) {
    Pending<K, R> previous = pending.get(key);
    if (previous == null) {
      pending.put(key, new Pending<>(Kind.UPDATE, key, row));
    } else if (previous.kind == Kind.DELETE) {
      throw new IllegalStateException(table + ": update of key " + key + " that this transaction deleted");
    } else {
      pending.put(key, new Pending<>(previous.kind, key, row));
    }
  }

  public void delete(K key) {
    Pending<K, R> previous = pending.get(key);
    if (previous != null && previous.kind == Kind.INSERT) {
      pending.remove(key);
    } else {
      pending.put(key, new Pending<>(Kind.DELETE, key, null));
    }
  }

  public boolean isEmpty() {
    return pending.isEmpty();
  }

  public List<K> deletes() {
    List<K> keys = new ArrayList<>();
    for (Pending<K, R> write : pending.values()) {
      if (write.kind == Kind.DELETE || write.kind == Kind.DELETE_THEN_INSERT) {
        keys.add(write.key);
      }
    }
    return keys;
  }

  public List<R> inserts() {
    return rowsOf(Kind.INSERT, Kind.DELETE_THEN_INSERT);
  }

  public List<R> updates() {
    return rowsOf(Kind.UPDATE, Kind.UPDATE);
  }

  private List<R> rowsOf(Kind first, Kind second) {
    List<R> rows = new ArrayList<>();
    for (Pending<K, R> write : pending.values()) {
      if (write.kind == first || write.kind == second) {
        rows.add(write.row);
      }
    }
    return rows;
  }

  public void clear() {
    pending.clear();
  }
}

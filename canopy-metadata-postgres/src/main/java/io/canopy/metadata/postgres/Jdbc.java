package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Statement helpers bound to one transaction's connection. Several statements can travel in one round trip: the
 * driver sends a multi-statement as one pipeline with a single Sync, and the server runs them in order. Writes are
 * queued by the tables' flushes and sent, with the COMMIT, in one such pipeline. Counts every round trip.
 */
final class Jdbc {
  interface Binder {
    void bind(Params statement) throws SQLException;
  }

  interface RowBinder<R> {
    void bind(Params statement, R row) throws SQLException;
  }

  interface Mapper<R> {
    R map(ResultSet row) throws SQLException;
  }

  /** One statement of a pipeline: its SQL, parameters and, for queries, how rows map (null for writes). */
  static final class Part<R> {
    private final String sql;
    private final int parameters;
    private final Binder binder;
    private final Mapper<R> mapper;
    private boolean plannedPerExecution;
    private List<R> rows;

    Part(String sql, Binder binder, Mapper<R> mapper) {
      this.sql = sql;
      this.parameters = countParameters(sql);
      this.binder = binder;
      this.mapper = mapper;
    }

    /**
     * This statement is planned with its values on every execution, never from a generic plan: for paging and
     * counting statements whose best plan depends on the values (a LIMIT, a skewed column, an array of unknown
     * length), where canopy.metadata.plan-cache-mode=force_generic_plan could pick a scan per page.
     */
    Part<R> plannedPerExecution() {
      plannedPerExecution = true;
      return this;
    }

    /** The rows a query returned; null before its pipeline ran. */
    List<R> rows() {
      return rows;
    }
  }

  /** A queued batch write: one statement per row. */
  private record QueuedWrite<R>(String sql, List<R> rows, RowBinder<R> binder) {
  }

  /**
   * Above this many queued write rows a flush sends one JDBC batch per statement instead of one pipeline, so that
   * deleting a large directory does not build one enormous multi-statement.
   */
  static final int MAX_PIPELINED_WRITES = 256;
  /**
   * Rows sent per JDBC batch at most: the driver holds the parameters of every row of a batch until it runs, so a
   * large transaction (a recursive delete) sends its rows in batches of this size instead of all at once.
   */
  static final int MAX_BATCH_ROWS = 10_000;

  /**
   * Rows one statement binds as arrays at most ({@link #chunks}): several rows of a table written in one statement
   * instead of one statement each, since on PostgreSQL a statement's fixed cost is most of a small write's.
   */
  static final int MAX_ARRAY_ROWS = 1_000;

  private static final Part<Void> COMMIT = new Part<>("COMMIT", s -> { }, null);

  private final Connection connection;
  private final boolean snapshotReads;
  private final List<QueuedWrite<?>> queuedWrites = new ArrayList<>();
  private int roundTrips;
  private int statements;

  /**
   * With {@code snapshotReads} (read-only transactions: autocommit, repeatable read), each statement or pipeline
   * reads one snapshot and row locks are not taken.
   */
  Jdbc(Connection connection, boolean snapshotReads) {
    this.connection = connection;
    this.snapshotReads = snapshotReads;
  }

  /** The lock a read really takes: none in a read-only transaction, whose pipelines each read one snapshot. */
  LockMode effective(LockMode requested) {
    return snapshotReads ? LockMode.NONE : requested;
  }

  Connection connection() {
    return connection;
  }

  int roundTrips() {
    return roundTrips;
  }

  int statements() {
    return statements;
  }

  void countRoundTrip() {
    roundTrips++;
  }

  static String lockClause(LockMode lock, String table) {
    return switch (lock) {
      case NONE -> "";
      case SHARED -> " FOR SHARE OF " + table;
      case EXCLUSIVE -> " FOR UPDATE OF " + table;
    };
  }

  <R> List<R> query(String sql, Binder binder, Mapper<R> mapper) throws StoreException {
    return run(new Part<>(sql, binder, mapper));
  }

  /** {@link #query}, planned with its values on every execution (see {@link Part#plannedPerExecution}). */
  <R> List<R> queryPlannedPerExecution(String sql, Binder binder, Mapper<R> mapper) throws StoreException {
    return run(new Part<>(sql, binder, mapper).plannedPerExecution());
  }

  /** Makes {@code statement} an unnamed one, which PostgreSQL plans with the values of each execution. */
  static void planPerExecution(PreparedStatement statement) throws SQLException {
    statement.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
  }

  /** Runs one statement in its own round trip and returns its rows. */
  <R> List<R> run(Part<R> part) throws StoreException {
    pipeline(List.of(part), false);
    return part.rows();
  }

  /** Runs {@code parts} in order in one round trip; a query part's rows are then in {@link Part#rows()}. */
  void pipeline(List<? extends Part<?>> parts, boolean commits) throws StoreException {
    if (parts.isEmpty()) {
      return;
    }
    roundTrips++;
    statements += parts.size();
    StringBuilder sql = new StringBuilder();
    for (Part<?> part : parts) {
      if (sql.length() > 0) {
        sql.append(";\n");
      }
      sql.append(part.sql);
    }
    try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      int offset = 0;
      for (Part<?> part : parts) {
        if (part.plannedPerExecution) {
          planPerExecution(statement);
        }
        part.binder.bind(new Params(statement, offset));
        offset += part.parameters;
      }
      statement.execute();
      for (int i = 0; i < parts.size(); i++) {
        collect(statement, parts.get(i));
        if (i + 1 < parts.size()) {
          statement.getMoreResults();
        }
      }
    } catch (SQLException e) {
      String what = parts.size() == 1 ? "statement [" + sql + "]"
          : "pipeline of " + parts.size() + " statements [" + abbreviate(sql) + "]";
      throw SqlErrors.classify(what, e.getNextException() != null ? e.getNextException() : e, commits);
    }
  }

  private static <R> void collect(PreparedStatement statement, Part<R> part) throws SQLException {
    if (part.mapper == null) {
      return;
    }
    try (ResultSet rows = statement.getResultSet()) {
      if (rows == null) {
        throw new SQLException("statement [" + part.sql + "] returned no rows in its pipeline");
      }
      List<R> result = new ArrayList<>();
      while (rows.next()) {
        result.add(part.mapper.map(rows));
      }
      part.rows = result;
    }
  }

  /** Queues a batch write (one statement per row) for {@link #flushWrites}. */
  <R> void batch(String sql, List<R> rows, RowBinder<R> binder) {
    if (!rows.isEmpty()) {
      queuedWrites.add(new QueuedWrite<>(sql, rows, binder));
    }
  }

  /**
   * Queues one statement deleting the rows of {@code table} whose {@code column} is any of {@code ids} (in the order
   * given: pass them sorted, so concurrent deletes lock rows in one order); nothing when there are none.
   */
  void deleteWhereAny(String table, String column, Collection<Long> ids) {
    if (!ids.isEmpty()) {
      batch("DELETE FROM " + table + " WHERE " + column + " = ANY(?)",
          Collections.singletonList(ids.toArray(new Long[0])),
          (s, all) -> s.setArray(1, s.getConnection().createArrayOf("bigint", all)));
    }
  }

  boolean hasQueuedWrites() {
    return !queuedWrites.isEmpty();
  }

  /**
   * Sends the queued writes, followed by COMMIT when {@code commit}: one round trip for a small transaction. A
   * large one sends one JDBC batch per statement, then commits separately.
   */
  void flushWrites(boolean commit) throws StoreException {
    int rows = 0;
    for (QueuedWrite<?> write : queuedWrites) {
      rows += write.rows().size();
    }
    List<QueuedWrite<?>> writes = new ArrayList<>(queuedWrites);
    queuedWrites.clear();
    if (rows <= MAX_PIPELINED_WRITES) {
      List<Part<?>> parts = new ArrayList<>(rows + 1);
      for (QueuedWrite<?> write : writes) {
        addParts(parts, write);
      }
      if (commit) {
        parts.add(COMMIT);
      }
      pipeline(parts, commit);
      return;
    }
    for (QueuedWrite<?> write : writes) {
      executeBatch(write);
    }
    if (commit) {
      pipeline(List.of(COMMIT), true);
    }
  }

  void clearQueuedWrites() {
    queuedWrites.clear();
  }

  private static <R> void addParts(List<Part<?>> parts, QueuedWrite<R> write) {
    for (R row : write.rows()) {
      parts.add(new Part<Void>(write.sql(), s -> write.binder().bind(s, row), null));
    }
  }

  private <R> void executeBatch(QueuedWrite<R> write) throws StoreException {
    statements += write.rows().size();
    try (PreparedStatement statement = connection.prepareStatement(write.sql())) {
      Params params = new Params(statement, 0);
      int added = 0;
      for (R row : write.rows()) {
        write.binder().bind(params, row);
        statement.addBatch();
        if (++added % MAX_BATCH_ROWS == 0 || added == write.rows().size()) {
          roundTrips++;
          statement.executeBatch();
        }
      }
    } catch (SQLException e) {
      SQLException cause = e.getNextException() != null ? e.getNextException() : e;
      throw SqlErrors.classify("batch [" + write.sql() + "]", cause, false);
    }
  }

  private static String abbreviate(CharSequence sql) {
    return sql.length() <= 400 ? sql.toString() : sql.subSequence(0, 400) + "...";
  }

  /** Number of {@code ?} placeholders: Canopy's SQL has no question marks in literals or operators. */
  static int countParameters(String sql) {
    // indexOf is the JDK's vectorized search; a charAt loop over every statement built was the namenode's hottest
    // method in the issue 13 profile (a quarter of its on-CPU samples in the Spotify mix)
    int count = 0;
    for (int at = sql.indexOf('?'); at >= 0; at = sql.indexOf('?', at + 1)) {
      count++;
    }
    return count;
  }

  static Long[] longs(List<Long> values) {
    return values.toArray(new Long[0]);
  }

  /** One column of {@code rows} as a {@code bigint} array parameter's elements. */
  static <R> Long[] longs(List<R> rows, ToLongFunction<R> column) {
    Long[] values = new Long[rows.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = column.applyAsLong(rows.get(i));
    }
    return values;
  }

  /**
   * {@code rows} in consecutive chunks of at most {@link #MAX_ARRAY_ROWS}, in order: for writes that bind a chunk of
   * rows as array parameters of one statement ({@link #batch} then queues one statement per chunk).
   */
  static <R> List<List<R>> chunks(List<R> rows) {
    List<List<R>> chunks = new ArrayList<>((rows.size() + MAX_ARRAY_ROWS - 1) / MAX_ARRAY_ROWS);
    for (int from = 0; from < rows.size(); from += MAX_ARRAY_ROWS) {
      chunks.add(rows.subList(from, Math.min(rows.size(), from + MAX_ARRAY_ROWS)));
    }
    return chunks;
  }
}

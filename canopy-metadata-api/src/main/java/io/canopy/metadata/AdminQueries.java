package io.canopy.metadata;

import java.util.List;

/**
 * Optional capability of a store whose engine has a query language: operators' read-only queries
 * ({@code canopy sql}, {@code canopy fsck}). Reached through {@link MetadataStore#capability}; no file-system code path
 * uses it.
 */
public interface AdminQueries {
  /**
   * Runs one read-only query in the engine's native language and returns at most {@code maxRows} rows
   * ({@link QueryResult#truncated()} tells whether more were left). A query that would write fails.
   */
  QueryResult adminQuery(String query, int maxRows) throws StoreException;

  /**
   * Runs {@code work}, whose queries all read one consistent snapshot of the metadata (a read-only transaction), their
   * rows streamed rather than held: what a whole-namespace check needs on a running cluster.
   */
  <T> T inSnapshot(SnapshotWork<T> work) throws StoreException;

  /**
   * {@code query}, written with the table and column names of the documented schema (docs/schema.md), in this
   * engine's names: the same text where the engine uses those names.
   */
  default String withSchemaNames(String query) {
    return query;
  }

  /** Queries over one snapshot ({@link #inSnapshot}). */
  interface Snapshot {
    /** Hands each row of {@code query} (values as text, {@code null} kept) to {@code rows}, in the query's order. */
    void forEachRow(String query, RowConsumer rows) throws StoreException;
  }

  /** What is done with each row of a snapshot query. */
  @FunctionalInterface
  interface RowConsumer {
    void accept(List<String> row) throws StoreException;
  }

  /** Work over a snapshot. */
  @FunctionalInterface
  interface SnapshotWork<T> {
    T run(Snapshot snapshot) throws StoreException;
  }
}

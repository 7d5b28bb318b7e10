package io.canopy.metadata;

/**
 * Optional capability of a store whose engine has a query language: operators' read-only queries
 * ({@code canopy sql}). Reached through {@link MetadataStore#capability}; no file-system code path uses it.
 */
public interface AdminQueries {
  /**
   * Runs one read-only query in the engine's native language and returns at most {@code maxRows} rows
   * ({@link QueryResult#truncated()} tells whether more were left). A query that would write fails.
   */
  QueryResult adminQuery(String query, int maxRows) throws StoreException;
}

package io.canopy.metadata.ignite;

import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.QueryResult;
import io.canopy.metadata.StoreException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ignite.sql.ColumnMetadata;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.sql.Statement;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;

/**
 * Operators' read-only queries on Ignite 3 ({@code canopy sql}, the tests' invariant checks), in Ignite's SQL.
 *
 * <p>A query runs outside any transaction: Ignite runs a query so as a read-only transaction at the present time, which
 * sees every committed write (an explicit read-only transaction would read in the past, by the idle safe-time
 * propagation and the maximum clock skew, design 020) and takes no lock a namenode could meet. Such a statement could
 * also write, so only a query is accepted: its first word (after comments, ended as Ignite's parser ends them, and
 * opening parentheses) must be {@code SELECT}, {@code WITH} or {@code EXPLAIN}; Ignite's parser takes no data change
 * after {@code WITH}, and one call runs one statement (a list of statements is refused by Ignite).
 *
 * <p>Values are rendered as text: a binary value as its UTF-8 text when it is valid UTF-8 (inode names are stored as
 * their UTF-8 bytes to sort in byte order, design 020), else as {@code \x} and its bytes in hex, as PostgreSQL shows
 * them. Unquoted column names come back upper-case from Ignite and are shown in lower case, as on PostgreSQL.
 *
 * <p>A snapshot ({@link #inSnapshot}) is an explicit read-only transaction: it reads the metadata as it was a moment
 * ago (the safe time's lag), consistently across tables. Queries written with the documented schema's names are
 * mapped onto the tables here ({@link #withSchemaNames}): a prefix ({@code invalidated_blocks} is
 * {@code canopy_invalidations}), three renamed columns, words inside quoted literals left alone, and the
 * {@code small_files} view (Ignite 3.1 has no views) expanded as a subquery over the one table holding small files'
 * bytes.
 */
final class IgniteAdminQueries implements AdminQueries {
  private static final int TIMEOUT_SECONDS = 30;
  private static final int PAGE_SIZE = 1024;
  private static final Set<String> QUERY_WORDS = Set.of("SELECT", "WITH", "EXPLAIN");
  /** A snapshot's query reads a whole table: minutes on a namespace of many millions of rows, never unbounded. */
  private static final int SNAPSHOT_TIMEOUT_SECONDS = 1800;
  private static final Map<String, String> SCHEMA_NAMES = new LinkedHashMap<>();
  /** A quoted literal (left as written) or a lower-case word (mapped). */
  private static final Pattern WORD = Pattern.compile("'(?:[^']|'')*'|\\b[a-z_]+\\b");

  static {
    for (String table : new String[] {"variables", "inodes", "blocks", "block_lookup", "replicas", "uc_replicas",
        "leases", "lease_paths", "subtree_operations", "xattrs", "acl_entries", "directory_quotas", "datanodes",
        "storages", "replication_queue", "namenodes", "future_blocks", "retry_cache"}) {
      SCHEMA_NAMES.put(table, "canopy_" + table);
    }
    SCHEMA_NAMES.put("invalidated_blocks", "canopy_invalidations");
    SCHEMA_NAMES.put("partition_id", "part");
    SCHEMA_NAMES.put("parent_id", "parent");
    SCHEMA_NAMES.put("block_index", "idx");
    SCHEMA_NAMES.put("small_files", "(SELECT inode_id, CASE WHEN octet_length(data) <= 1024 THEN 'inline' ELSE 'data'"
        + " END AS tier, octet_length(data) AS bytes FROM canopy_small_files)");
  }

  private final HomeNodeClient clients;

  IgniteAdminQueries(HomeNodeClient clients) {
    this.clients = clients;
  }

  @Override
  public QueryResult adminQuery(String query, int maxRows) throws StoreException {
    String word = firstWord(query);
    if (!QUERY_WORDS.contains(word)) {
      throw new StoreException("An administrative query must be a query (SELECT, WITH or EXPLAIN), not "
          + (word.isEmpty() ? "an empty statement" : word));
    }
    org.apache.ignite.sql.IgniteSql sql = clients.get().sql();
    Statement statement = sql.statementBuilder().query(query).queryTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .pageSize(PAGE_SIZE).build();
    try (ResultSet<SqlRow> rows = sql.execute(null, statement)) {
      if (!rows.hasRowSet()) {
        throw new StoreException("An administrative query must return rows");
      }
      List<String> columns = new ArrayList<>();
      for (ColumnMetadata column : rows.metadata().columns()) {
        columns.add(label(column.name()));
      }
      List<List<String>> result = new ArrayList<>();
      boolean truncated = false;
      while (rows.hasNext()) {
        SqlRow row = rows.next();
        if (result.size() == maxRows) {
          truncated = true;
          break;
        }
        List<String> values = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
          values.add(text(row.value(c)));
        }
        result.add(values);
      }
      return new QueryResult(columns, result, truncated);
    } catch (RuntimeException e) {
      StoreException translated = IgniteErrors.translate("administrative query", e, false);
      throw new StoreException("Query failed: " + translated.getMessage(), e);
    }
  }

  @Override
  public String withSchemaNames(String query) {
    Matcher words = WORD.matcher(query);
    StringBuilder out = new StringBuilder();
    while (words.find()) {
      String word = words.group();
      words.appendReplacement(out, Matcher.quoteReplacement(word.startsWith("'") ? word
          : SCHEMA_NAMES.getOrDefault(word, word)));
    }
    words.appendTail(out);
    return out.toString();
  }

  @Override
  public <T> T inSnapshot(SnapshotWork<T> work) throws StoreException {
    org.apache.ignite.client.IgniteClient client = clients.get();
    Transaction transaction;
    try {
      transaction = client.transactions().begin(new TransactionOptions().readOnly(true)
          .timeoutMillis(TimeUnit.SECONDS.toMillis(SNAPSHOT_TIMEOUT_SECONDS)));
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("snapshot read", e, false);
    }
    try {
      return work.run((query, consumer) -> forEachRow(client, transaction, query, consumer));
    } finally {
      try {
        transaction.rollback();
      } catch (RuntimeException e) {
        // a read-only transaction holds nothing: its end only frees its resources sooner
      }
    }
  }

  private static void forEachRow(org.apache.ignite.client.IgniteClient client, Transaction transaction,
      String query, RowConsumer consumer) throws StoreException {
    String word = firstWord(query);
    if (!QUERY_WORDS.contains(word)) {
      throw new StoreException("A snapshot query must be a query (SELECT or WITH), not " + word);
    }
    Statement statement = client.sql().statementBuilder().query(query)
        .queryTimeout(SNAPSHOT_TIMEOUT_SECONDS, TimeUnit.SECONDS).pageSize(PAGE_SIZE).build();
    try (ResultSet<SqlRow> rows = client.sql().execute(transaction, statement)) {
      int columns = rows.metadata().columns().size();
      while (rows.hasNext()) {
        SqlRow row = rows.next();
        List<String> values = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
          values.add(text(row.value(c)));
        }
        consumer.accept(values);
      }
    } catch (RuntimeException e) {
      StoreException translated = IgniteErrors.translate("snapshot query", e, false);
      throw new StoreException("Query failed: " + translated.getMessage() + " (" + query + ")", e);
    }
  }

  /** The statement's first word, upper-case, after whitespace, comments and opening parentheses; empty if none. */
  static String firstWord(String query) {
    int i = 0;
    int n = query.length();
    while (i < n) {
      char c = query.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (query.startsWith("--", i)) {
        // Ignite's parser (Calcite's) ends a line comment at a carriage return as well as at a line feed: skipping
        // to the line feed alone let "--\rDELETE ...\nSELECT" pass as a query
        int end = i + 2;
        while (end < n && query.charAt(end) != '\n' && query.charAt(end) != '\r') {
          end++;
        }
        i = end;
      } else if (query.startsWith("/*", i)) {
        int end = query.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else {
        break;
      }
    }
    int start = i;
    while (i < n && Character.isLetter(query.charAt(i))) {
      i++;
    }
    return query.substring(start, i).toUpperCase(Locale.ROOT);
  }

  private static String label(String name) {
    return name.equals(name.toUpperCase(Locale.ROOT)) ? name.toLowerCase(Locale.ROOT) : name;
  }

  static String text(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof byte[] bytes) {
      try {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
      } catch (CharacterCodingException e) {
        return "\\x" + HexFormat.of().formatHex(bytes);
      }
    }
    return String.valueOf(value);
  }
}

package io.canopy.it;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tests' SQL is written with the metadata tables' PostgreSQL names (docs/schema.md); on Ignite 3 the same tables
 * carry a prefix and a few columns are named otherwise (design 020). This maps one onto the other, word by word, for
 * the tables and columns the tests read.
 */
final class IgniteTableNames {
  private static final Map<String, String> NAMES = new LinkedHashMap<>();

  static {
    for (String table : new String[] {"inodes", "blocks", "block_lookup", "replicas", "uc_replicas", "leases",
        "lease_paths", "subtree_operations", "xattrs", "acl_entries", "directory_quotas", "datanodes", "storages",
        "invalidations", "replication_queue", "namenodes", "future_blocks", "retry_cache"}) {
      NAMES.put(table, "canopy_" + table);
    }
    NAMES.put("partition_id", "part");
    NAMES.put("parent_id", "parent");
    NAMES.put("block_index", "idx");
  }

  private static final Pattern WORD = Pattern.compile("\\b[a-z_]+\\b");

  private IgniteTableNames() {
  }

  /** {@code sql} with the PostgreSQL table and column names replaced by Ignite's. */
  static String translate(String sql) {
    Matcher words = WORD.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (words.find()) {
      words.appendReplacement(out, Matcher.quoteReplacement(NAMES.getOrDefault(words.group(), words.group())));
    }
    words.appendTail(out);
    return out.toString();
  }
}

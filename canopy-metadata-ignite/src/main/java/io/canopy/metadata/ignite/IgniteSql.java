package io.canopy.metadata.ignite;

/** Small helpers for the SQL the engine sends. */
final class IgniteSql {
  private IgniteSql() {
  }

  /**
   * Values one IN list carries at most: Ignite 3.1.0 compiles a statement's predicate to bytecode, and a delete of
   * the attributes of 1,100 inodes in one list failed every attempt with "Unable to compile expression" (design 020).
   */
  static final int IN_LIST_MAX = 100;

  /**
   * Distinct {@code ids} in ascending order, in lists of at most {@link #IN_LIST_MAX}: the queries of the lists one
   * after another keep an {@code ORDER BY INODE_ID}.
   */
  static java.util.List<java.util.List<Long>> idLists(java.util.Collection<Long> ids) {
    java.util.List<Long> sorted = new java.util.ArrayList<>(new java.util.TreeSet<>(ids));
    java.util.List<java.util.List<Long>> lists = new java.util.ArrayList<>();
    for (int from = 0; from < sorted.size(); from += IN_LIST_MAX) {
      lists.add(java.util.List.copyOf(sorted.subList(from, Math.min(sorted.size(), from + IN_LIST_MAX))));
    }
    return lists;
  }

  /** {@code ?, ?, ...}: {@code count} parameters for an IN list. */
  static String placeholders(int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("an IN list needs at least one value, got " + count);
    }
    return "?" + ", ?".repeat(count - 1);
  }
}

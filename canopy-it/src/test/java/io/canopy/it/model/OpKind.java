package io.canopy.it.model;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The kinds of operation the model-based test generates; a run enables a subset. */
public enum OpKind {
  MKDIR, CREATE, APPEND, RENAME, RENAME2, DELETE, CHMOD, SET_QUOTA, LIST, STAT, COUNT, QUOTA_USAGE, READ, TREE;

  /**
   * Parses {@code all} or a comma-separated list of kinds (case-insensitive); a leading {@code -} removes a kind,
   * e.g. {@code all,-append}.
   */
  public static Set<OpKind> parse(String spec) {
    EnumSet<OpKind> kinds = EnumSet.noneOf(OpKind.class);
    for (String part : spec.split(",")) {
      String name = part.trim();
      if (name.isEmpty()) {
        continue;
      }
      boolean remove = name.startsWith("-");
      if (remove) {
        name = name.substring(1);
      }
      Set<OpKind> named = name.equalsIgnoreCase("all")
          ? EnumSet.allOf(OpKind.class)
          : EnumSet.of(OpKind.valueOf(name.toUpperCase(Locale.ROOT)));
      if (remove) {
        kinds.removeAll(named);
      } else {
        kinds.addAll(named);
      }
    }
    if (kinds.isEmpty()) {
      throw new IllegalArgumentException("no operation kind enabled by '" + spec + "'");
    }
    return kinds;
  }
}

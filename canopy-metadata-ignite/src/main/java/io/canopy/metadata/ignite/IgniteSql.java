package io.canopy.metadata.ignite;

/** Small helpers for the SQL the engine sends. */
final class IgniteSql {
  private IgniteSql() {
  }

  /** {@code ?, ?, ...}: {@code count} parameters for an IN list. */
  static String placeholders(int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("an IN list needs at least one value, got " + count);
    }
    return "?" + ", ?".repeat(count - 1);
  }
}

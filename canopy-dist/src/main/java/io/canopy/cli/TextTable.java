package io.canopy.cli;

import io.canopy.metadata.QueryResult;
import java.util.ArrayList;
import java.util.List;

/** Renders query results as an aligned text table, in the style of psql. */
public final class TextTable {
  static final String NULL = "NULL";

  private TextTable() {
  }

  public static String render(QueryResult result) {
    List<String> columns = result.columns();
    List<List<String>> rows = new ArrayList<>();
    for (List<String> row : result.rows()) {
      List<String> cells = new ArrayList<>();
      for (String value : row) {
        cells.add(value == null ? NULL : printable(value));
      }
      rows.add(cells);
    }
    int[] widths = new int[columns.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = columns.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder text = new StringBuilder();
    appendRow(text, columns, widths);
    for (int i = 0; i < widths.length; i++) {
      text.append(i == 0 ? "-" : "+-").append("-".repeat(widths[i])).append(i == widths.length - 1 ? "-\n" : "-");
    }
    for (List<String> row : rows) {
      appendRow(text, row, widths);
    }
    text.append('(').append(rows.size()).append(rows.size() == 1 ? " row" : " rows");
    if (result.truncated()) {
      text.append("; more rows exist, raise --max-rows to see them");
    }
    return text.append(")\n").toString();
  }

  private static void appendRow(StringBuilder text, List<String> cells, int[] widths) {
    for (int i = 0; i < widths.length; i++) {
      text.append(i == 0 ? " " : " | ").append(cells.get(i));
      if (i < widths.length - 1) {
        text.append(" ".repeat(widths[i] - cells.get(i).length()));
      }
    }
    text.append('\n');
  }

  /** Keeps each row on one line: control characters are shown escaped. */
  private static String printable(String value) {
    StringBuilder shown = new StringBuilder(value.length());
    for (char c : value.toCharArray()) {
      switch (c) {
        case '\n' -> shown.append("\\n");
        case '\r' -> shown.append("\\r");
        case '\t' -> shown.append("\\t");
        default -> shown.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return shown.toString();
  }
}

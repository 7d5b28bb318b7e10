package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.VariableTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

final class PgVariableTable implements VariableTable, BufferedTable {
  private final Jdbc jdbc;
  /** Values to write at commit, by name; the last put of a name wins. */
  private final Map<String, Long> puts = new LinkedHashMap<>();

  PgVariableTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /** One variable's value (a null element when the row holds no number). */
  static Jdbc.Part<Long> getPart(String name, LockMode lock) {
    return new Jdbc.Part<>("SELECT v.long_value FROM variables v WHERE v.name = ?" + Jdbc.lockClause(lock, "v"),
        s -> s.setString(1, name), r -> {
          long value = r.getLong(1);
          return r.wasNull() ? null : value;
        });
  }

  @Override
  public OptionalLong getLong(String name, LockMode lock) throws StoreException {
    List<Long> values = jdbc.run(getPart(name, jdbc.effective(lock)));
    return values.isEmpty() || values.get(0) == null ? OptionalLong.empty() : OptionalLong.of(values.get(0));
  }

  @Override
  public void putLong(String name, long value) {
    puts.put(name, value);
  }

  @Override
  public void flush() {
    jdbc.batch("INSERT INTO variables (name, long_value) VALUES (?, ?) "
        + "ON CONFLICT (name) DO UPDATE SET long_value = EXCLUDED.long_value", new ArrayList<>(puts.entrySet()),
        (s, e) -> {
          s.setString(1, e.getKey());
          s.setLong(2, e.getValue());
        });
    puts.clear();
  }

  @Override
  public void clear() {
    puts.clear();
  }
}

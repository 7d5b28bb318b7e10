package io.canopy.metadata.postgres;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.IdCounterTable;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The id counters: the {@code next_id.*} rows of {@code variables} that allocateIds increments. */
final class PgIdCounterTable implements IdCounterTable, BufferedTable {
  private final Jdbc jdbc;
  /** The largest value each counter must reach at commit. */
  private final Map<IdKind, Long> advances = new EnumMap<>(IdKind.class);

  PgIdCounterTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public long next(IdKind kind, LockMode lock) throws StoreException {
    List<Long> values = jdbc.run(PgVariableTable.getPart(PostgresMetadataStore.idVariable(kind),
        jdbc.effective(lock)));
    if (values.isEmpty() || values.get(0) == null) {
      throw new StoreException("The namespace is not formatted: no id counter "
          + PostgresMetadataStore.idVariable(kind));
    }
    return values.get(0);
  }

  @Override
  public void advanceTo(IdKind kind, long next) {
    advances.merge(kind, next, Math::max);
  }

  @Override
  public void flush() {
    jdbc.batch("UPDATE variables SET long_value = GREATEST(long_value, ?) WHERE name = ?",
        new ArrayList<>(advances.entrySet()), (s, e) -> {
          s.setLong(1, e.getValue());
          s.setString(2, PostgresMetadataStore.idVariable(e.getKey()));
        });
    advances.clear();
  }

  @Override
  public void clear() {
    advances.clear();
  }
}

package io.canopy.metadata.ignite;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.IdCounterTable;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;

/** The id counters: the {@code next_id.*} variables that allocateIds increments. */
final class IgniteIdCounterTable implements IdCounterTable, IgniteBufferedTable {
  private final IgniteSession session;
  private final RecordView<Tuple> view;
  /** The largest value each counter must reach at commit. */
  private final Map<IdKind, Long> advances = new EnumMap<>(IdKind.class);

  IgniteIdCounterTable(IgniteClient client, IgniteSession session) {
    this.session = session;
    this.view = IgniteVariableTable.view(client);
  }

  static String variable(IdKind kind) {
    return "next_id." + kind.name().toLowerCase();
  }

  @Override
  public long next(IdKind kind, LockMode lock) throws StoreException {
    Tuple row = session.get(view, IgniteVariableTable.key(variable(kind)), lock, "reading " + variable(kind));
    if (row == null || row.value("LONG_VALUE") == null) {
      throw new StoreException("The namespace is not formatted: no id counter " + variable(kind));
    }
    return row.longValue("LONG_VALUE");
  }

  @Override
  public void advanceTo(IdKind kind, long next) {
    advances.merge(kind, next, Math::max);
  }

  @Override
  public void flush() throws StoreException {
    if (advances.isEmpty()) {
      return;
    }
    // Never lowers a counter: the rows are read under an exclusive lock, then raised where below.
    List<Tuple> keys = new ArrayList<>();
    List<IdKind> kinds = new ArrayList<>(advances.keySet());
    for (IdKind kind : kinds) {
      keys.add(IgniteVariableTable.key(variable(kind)));
    }
    List<Tuple> rows = session.getAll(view, keys, LockMode.EXCLUSIVE, "advancing id counters");
    List<Tuple> raised = new ArrayList<>();
    for (int i = 0; i < kinds.size(); i++) {
      Tuple row = rows.get(i);
      long wanted = advances.get(kinds.get(i));
      if (row == null) {
        throw new StoreException("The namespace is not formatted: no id counter " + variable(kinds.get(i)));
      }
      if (row.longValue("LONG_VALUE") < wanted) {
        raised.add(IgniteVariableTable.key(variable(kinds.get(i))).set("LONG_VALUE", wanted).set("TEXT_VALUE", null));
      }
    }
    if (!raised.isEmpty()) {
      try {
        view.upsertAll(session.transaction(), raised);
        session.count(1);
      } catch (RuntimeException e) {
        throw session.translate("advancing id counters", e, false);
      }
    }
    advances.clear();
  }

  @Override
  public boolean isEmpty() {
    return advances.isEmpty();
  }

  @Override
  public void clear() {
    advances.clear();
  }
}

package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.VariableTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_VARIABLES}: named numbers (leader term, id counters, safe mode...), written at commit. */
final class IgniteVariableTable implements VariableTable, IgniteBufferedTable {
  private final IgniteSession session;
  private final RecordView<Tuple> view;
  private final Map<String, Long> puts = new LinkedHashMap<>();

  IgniteVariableTable(IgniteClient client, IgniteSession session) {
    this.session = session;
    this.view = view(client);
  }

  static RecordView<Tuple> view(IgniteClient client) {
    return IgniteViews.of(client, IgniteSchema.VARIABLES);
  }

  static Tuple key(String name) {
    return Tuple.create(1).set("NAME", name);
  }

  @Override
  public OptionalLong getLong(String name, LockMode lock) throws StoreException {
    Tuple row = session.get(view, key(name), lock, "reading variable " + name);
    return row == null || row.value("LONG_VALUE") == null ? OptionalLong.empty()
        : OptionalLong.of(row.longValue("LONG_VALUE"));
  }

  @Override
  public void putLong(String name, long value) {
    puts.put(name, value);
  }

  @Override
  public void flush() throws StoreException {
    if (puts.isEmpty()) {
      return;
    }
    List<Tuple> rows = new ArrayList<>();
    puts.forEach((name, value) -> rows.add(key(name).set("LONG_VALUE", value).set("TEXT_VALUE", null)));
    try {
      view.upsertAll(session.transaction(), rows);
      session.count(1);
    } catch (RuntimeException e) {
      throw session.translate("writing variables " + puts.keySet(), e, false);
    }
    puts.clear();
  }

  @Override
  public boolean isEmpty() {
    return puts.isEmpty();
  }

  @Override
  public void clear() {
    puts.clear();
  }
}

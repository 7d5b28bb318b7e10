package io.canopy.metadata.ignite;

import io.canopy.metadata.BlockCensus;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.BlockState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;

/**
 * The startup safe mode's counts on Ignite: whole-table statements run without a transaction (Ignite runs them as
 * read-only ones at the present time, taking no lock), so counting never holds writers off.
 */
final class IgniteBlockCensus implements BlockCensus {
  private final HomeNodeClient clients;

  IgniteBlockCensus(HomeNodeClient clients) {
    this.clients = clients;
  }

  @Override
  public long completeBlocks() throws StoreException {
    return count("SELECT COUNT(*) FROM " + IgniteSchema.BLOCKS + " WHERE STATE = " + BlockState.COMPLETE.code()
        + " AND BLOCK_ID >= 0");
  }

  @Override
  public long completeBlocksWithReplicasOn(Collection<String> storageIds, int minReplicas) throws StoreException {
    if (storageIds.isEmpty()) {
      return 0;
    }
    List<Object> arguments = new ArrayList<>(storageIds);
    arguments.add(minReplicas);
    return count("SELECT COUNT(*) FROM (SELECT r.BLOCK_ID FROM " + IgniteSchema.REPLICAS + " r JOIN "
        + IgniteSchema.BLOCKS + " b ON b.INODE_ID = r.INODE_ID AND b.BLOCK_ID = r.BLOCK_ID WHERE r.STORAGE_ID IN ("
        + IgniteSql.placeholders(storageIds.size()) + ") AND r.CORRUPT_REASON = 0 AND b.STATE = "
        + BlockState.COMPLETE.code() + " GROUP BY r.BLOCK_ID HAVING COUNT(*) >= ?) safe", arguments.toArray());
  }

  private long count(String sql, Object... arguments) throws StoreException {
    try (ResultSet<SqlRow> rows = clients.get().sql().execute(null, sql, arguments)) {
      return rows.next().longValue(0);
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("counting blocks for the safe mode", e, false);
    }
  }
}

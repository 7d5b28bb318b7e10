package io.canopy.metadata.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.canopy.metadata.BlockCensus;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.BlockState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;

/** Block counts across every partition, each query on a read-only (snapshot) connection of its own. */
final class PgBlockCensus implements BlockCensus {
  private final HikariDataSource readPool;

  PgBlockCensus(HikariDataSource readPool) {
    this.readPool = readPool;
  }

  @Override
  public long completeBlocks() throws StoreException {
    return count("SELECT count(*) FROM blocks WHERE state = " + BlockState.COMPLETE.code() + " AND block_id >= 0",
        null, 0);
  }

  @Override
  public long completeBlocksWithReplicasOn(Collection<String> storageIds, int minReplicas) throws StoreException {
    if (minReplicas < 1) {
      throw new IllegalArgumentException("a safe block needs at least one replica, got " + minReplicas);
    }
    if (storageIds.isEmpty()) {
      return 0;
    }
    return count("SELECT count(*) FROM (SELECT r.block_id FROM replicas r JOIN blocks b "
        + "ON b.inode_id = r.inode_id AND b.block_id = r.block_id "
        + "WHERE r.storage_id = ANY(?) AND r.corrupt_reason = 0 AND b.state = " + BlockState.COMPLETE.code()
        + " GROUP BY r.block_id HAVING count(*) >= ?) safe", storageIds.toArray(new String[0]), minReplicas);
  }

  private long count(String sql, String[] storageIds, int minReplicas) throws StoreException {
    try (Connection connection = readPool.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      Jdbc.planPerExecution(statement); // the storages match most replicas: a generic plan would guess ten
      if (storageIds != null) {
        statement.setArray(1, connection.createArrayOf("text", storageIds));
        statement.setInt(2, minReplicas);
      }
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    } catch (SQLException e) {
      throw SqlErrors.classify("counting blocks for safe mode", e, false);
    }
  }
}

package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.AclTable;
import io.canopy.metadata.dal.BlockLookupTable;
import io.canopy.metadata.dal.BlockTable;
import io.canopy.metadata.dal.DatanodeTable;
import io.canopy.metadata.dal.FutureBlockTable;
import io.canopy.metadata.dal.IdCounterTable;
import io.canopy.metadata.dal.InodeTable;
import io.canopy.metadata.dal.InvalidationTable;
import io.canopy.metadata.dal.LeasePathTable;
import io.canopy.metadata.dal.LeaseTable;
import io.canopy.metadata.dal.NamenodeTable;
import io.canopy.metadata.dal.QuotaTable;
import io.canopy.metadata.dal.SubtreeOperationTable;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.RetryCacheTable;
import io.canopy.metadata.dal.ReplicaTable;
import io.canopy.metadata.dal.ReplicationQueueTable;
import io.canopy.metadata.dal.StorageTable;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.dal.UcReplicaTable;
import io.canopy.metadata.dal.VariableTable;
import io.canopy.metadata.dal.SmallFileTable;
import io.canopy.metadata.dal.XAttrTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

final class PostgresTransaction implements Transaction {
  private final Connection connection;
  private final Jdbc jdbc;
  private final PgInodeTable inodes;
  private final PgAclTable acls;
  private final PgBlockTable blocks;
  private final PgBlockLookupTable blockLookup;
  private final PgReplicaTable replicas;
  private final PgUcReplicaTable ucReplicas;
  private final PgLeaseTable leases;
  private final PgLeasePathTable leasePaths;
  private final PgDatanodeTable datanodes;
  private final PgStorageTable storages;
  private final PgInvalidationTable invalidations;
  private final PgReplicationQueueTable replicationQueue;
  private final PgRetryCacheTable retryCache;
  private final PgNamenodeTable namenodes;
  private final PgVariableTable variables;
  private final PgXAttrTable xattrs;
  private final PgSmallFileTable smallFiles;
  private final PgQuotaTable quotas;
  private final PgSubtreeOperationTable subtreeOperations;
  private final PgIdCounterTable idCounters;
  private final PgFutureBlockTable futureBlocks;
  private final boolean readOnly;
  /** Flush order: fixed, so concurrent commits touch tables in the same order. */
  private final List<BufferedTable> flushOrder;
  private boolean finished;

  /**
   * A read-only transaction uses a connection of the read pool (autocommit, repeatable read): each statement or
   * pipeline is its own implicit transaction reading one snapshot, without row locks (so no transaction id, no
   * WAL, no wait for writers), and commit needs no round trip.
   */
  PostgresTransaction(Connection connection, boolean readOnly) {
    this.connection = connection;
    this.readOnly = readOnly;
    this.jdbc = new Jdbc(connection, readOnly);
    this.inodes = new PgInodeTable(jdbc);
    this.acls = new PgAclTable(jdbc);
    this.blocks = new PgBlockTable(jdbc);
    this.blockLookup = new PgBlockLookupTable(jdbc);
    this.replicas = new PgReplicaTable(jdbc);
    this.ucReplicas = new PgUcReplicaTable(jdbc);
    this.leases = new PgLeaseTable(jdbc);
    this.leasePaths = new PgLeasePathTable(jdbc);
    this.datanodes = new PgDatanodeTable(jdbc);
    this.storages = new PgStorageTable(jdbc);
    this.invalidations = new PgInvalidationTable(jdbc);
    this.replicationQueue = new PgReplicationQueueTable(jdbc);
    this.retryCache = new PgRetryCacheTable(jdbc);
    this.namenodes = new PgNamenodeTable(jdbc);
    this.variables = new PgVariableTable(jdbc);
    this.xattrs = new PgXAttrTable(jdbc);
    this.smallFiles = new PgSmallFileTable(jdbc);
    this.quotas = new PgQuotaTable(jdbc);
    this.subtreeOperations = new PgSubtreeOperationTable(jdbc);
    this.idCounters = new PgIdCounterTable(jdbc);
    this.futureBlocks = new PgFutureBlockTable(jdbc);
    this.flushOrder = List.of(inodes, acls, quotas, blocks, blockLookup, replicas, ucReplicas, leases, leasePaths,
        datanodes, storages, invalidations, replicationQueue, retryCache, namenodes, variables, xattrs, smallFiles,
        idCounters, futureBlocks, subtreeOperations);
  }

  @Override
  public InodeTable inodes() {
    return inodes;
  }

  @Override
  public AclTable acls() {
    return acls;
  }

  @Override
  public BlockTable blocks() {
    return blocks;
  }

  @Override
  public BlockLookupTable blockLookup() {
    return blockLookup;
  }

  @Override
  public ReplicaTable replicas() {
    return replicas;
  }

  @Override
  public UcReplicaTable ucReplicas() {
    return ucReplicas;
  }

  @Override
  public LeaseTable leases() {
    return leases;
  }

  @Override
  public LeasePathTable leasePaths() {
    return leasePaths;
  }

  @Override
  public DatanodeTable datanodes() {
    return datanodes;
  }

  @Override
  public StorageTable storages() {
    return storages;
  }

  @Override
  public InvalidationTable invalidations() {
    return invalidations;
  }

  @Override
  public ReplicationQueueTable replicationQueue() {
    return replicationQueue;
  }

  @Override
  public RetryCacheTable retryCache() {
    return retryCache;
  }

  @Override
  public NamenodeTable namenodes() {
    return namenodes;
  }

  @Override
  public VariableTable variables() {
    return variables;
  }

  @Override
  public IdCounterTable idCounters() {
    return idCounters;
  }

  @Override
  public FutureBlockTable futureBlocks() {
    return futureBlocks;
  }

  @Override
  public XAttrTable xattrs() {
    return xattrs;
  }

  @Override
  public SmallFileTable smallFiles() {
    return smallFiles;
  }

  @Override
  public QuotaTable quotas() {
    return quotas;
  }

  @Override
  public SubtreeOperationTable subtreeOperations() {
    return subtreeOperations;
  }

  @Override
  public ReadBatch batch() {
    return new PgReadBatch(jdbc);
  }

  @Override
  public boolean readOnly() {
    return readOnly;
  }

  @Override
  public void commit() throws StoreException {
    if (finished) {
      throw new IllegalStateException("transaction already finished");
    }
    for (BufferedTable table : flushOrder) {
      table.flush();
    }
    if (readOnly) {
      if (jdbc.hasQueuedWrites()) {
        rollback();
        throw new IllegalStateException("invariant: a read-only transaction buffered writes");
      }
      finished = true;
      release();
      return;
    }
    try {
      // The writes and the COMMIT travel together: one round trip for a small transaction.
      jdbc.flushWrites(true);
      finished = true;
      release();
    } catch (StoreException e) {
      rollback();
      throw e;
    }
  }

  @Override
  public void rollback() {
    if (finished) {
      return;
    }
    finished = true;
    flushOrder.forEach(BufferedTable::clear);
    jdbc.clearQueuedWrites();
    if (!readOnly) {
      try {
        connection.rollback();
      } catch (SQLException ignored) {
        // the connection is broken; the pool discards it on close
      }
    }
    release();
  }

  private void release() {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // returning a broken connection to the pool evicts it
    }
  }

  @Override
  public int roundTrips() {
    return jdbc.roundTrips();
  }

  @Override
  public int statements() {
    return jdbc.statements();
  }

  @Override
  public void close() {
    rollback();
  }
}

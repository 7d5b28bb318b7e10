package io.canopy.metadata.ignite;

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
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.ReplicaTable;
import io.canopy.metadata.dal.ReplicationQueueTable;
import io.canopy.metadata.dal.RetryCacheTable;
import io.canopy.metadata.dal.SmallFileTable;
import io.canopy.metadata.dal.StorageTable;
import io.canopy.metadata.dal.SubtreeOperationTable;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.dal.UcReplicaTable;
import io.canopy.metadata.dal.VariableTable;
import io.canopy.metadata.dal.XAttrTable;
import java.util.List;
import org.apache.ignite.client.IgniteClient;

/**
 * One DAL transaction on Ignite 3 (design 020): the tables share one {@link IgniteSession}, and commit flushes their
 * buffered writes in a fixed table order before committing the Ignite transaction.
 */
final class IgniteTransaction implements Transaction {
  private final IgniteSession session;
  private final IgniteScans scans;
  private final IgniteInodeTable inodes;
  private final IgniteVariableTable variables;
  private final IgniteIdCounterTable idCounters;
  private final IgniteAclTable acls;
  private final IgniteBlockTable blocks;
  private final IgniteReplicaTable replicas;
  private final IgniteBlockLookupTable blockLookup;
  private final IgniteUcReplicaTable ucReplicas;
  private final IgniteLeaseTable leases;
  private final IgniteLeasePathTable leasePaths;
  private final IgniteDatanodeTable datanodes;
  private final IgniteStorageTable storages;
  private final IgniteInvalidationTable invalidations;
  private final IgniteReplicationQueueTable replicationQueue;
  private final IgniteRetryCacheTable retryCache;
  private final IgniteNamenodeTable namenodes;
  private final IgniteFutureBlockTable futureBlocks;
  private final IgniteXAttrTable xattrs;
  private final IgniteSmallFileTable smallFiles;
  private final IgniteQuotaTable quotas;
  private final IgniteSubtreeOperationTable subtreeOperations;
  /** Flush order: fixed, so concurrent commits take their write locks in the same order. */
  private final List<IgniteBufferedTable> flushOrder;
  private boolean finished;

  IgniteTransaction(IgniteClient client, boolean readOnly, IgniteScans scans, long timeoutMs) {
    this.scans = scans;
    this.session = new IgniteSession(client, readOnly, timeoutMs);
    this.inodes = new IgniteInodeTable(client, session);
    this.variables = new IgniteVariableTable(client, session);
    this.idCounters = new IgniteIdCounterTable(client, session);
    this.acls = new IgniteAclTable(client, session);
    this.blocks = new IgniteBlockTable(client, session);
    this.replicas = new IgniteReplicaTable(client, session, blocks);
    this.blockLookup = new IgniteBlockLookupTable(client, session);
    this.ucReplicas = new IgniteUcReplicaTable(client, session);
    this.leases = new IgniteLeaseTable(client, session);
    this.leasePaths = new IgniteLeasePathTable(client, session);
    this.datanodes = new IgniteDatanodeTable(client, session);
    this.storages = new IgniteStorageTable(client, session);
    this.invalidations = new IgniteInvalidationTable(client, session);
    this.replicationQueue = new IgniteReplicationQueueTable(client, session);
    this.retryCache = new IgniteRetryCacheTable(client, session);
    this.namenodes = new IgniteNamenodeTable(client, session);
    this.futureBlocks = new IgniteFutureBlockTable(client, session);
    this.xattrs = new IgniteXAttrTable(client, session);
    this.smallFiles = new IgniteSmallFileTable(client, session);
    this.quotas = new IgniteQuotaTable(client, session);
    this.subtreeOperations = new IgniteSubtreeOperationTable(client, session);
    this.flushOrder = List.of(inodes, acls.rows(), quotas.rows(), blocks.rows(), blockLookup.rows(),
        replicas.rows(), ucReplicas.rows(), leases.rows(), leasePaths.rows(), datanodes.rows(), storages.rows(), invalidations.rows(),
        replicationQueue.rows(), retryCache.rows(), namenodes.rows(), variables, xattrs.rows(), smallFiles.rows(),
        idCounters, futureBlocks.rows(), subtreeOperations.rows());
  }

  @Override
  public InodeTable inodes() {
    return inodes;
  }

  IgniteSession session() {
    return session;
  }

  /** The inode table with the counts a read batch needs beyond {@link InodeTable}. */
  IgniteInodeTable igniteInodes() {
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
    return new IgniteReadBatch(this);
  }

  /** Where a read-only batch runs its scans side by side. */
  IgniteScans scans() {
    return scans;
  }

  @Override
  public boolean readOnly() {
    return session.readOnly();
  }

  @Override
  public void commit() throws StoreException {
    if (finished) {
      throw new IllegalStateException("transaction already finished");
    }
    finished = true;
    try {
      for (IgniteBufferedTable table : flushOrder) {
        if (session.readOnly() && !table.isEmpty()) {
          throw new IllegalStateException("a read-only transaction buffered writes");
        }
        table.flush();
      }
      session.commit();
    } catch (StoreException | RuntimeException e) {
      clearBuffers();
      session.rollback();
      throw e;
    }
  }

  private void clearBuffers() {
    for (IgniteBufferedTable table : flushOrder) {
      table.clear();
    }
  }

  @Override
  public void rollback() {
    finished = true;
    clearBuffers();
    session.rollback();
  }

  @Override
  public int roundTrips() {
    return session.roundTrips();
  }

  @Override
  public int statements() {
    return session.statements();
  }

  @Override
  public void close() {
    if (!finished) {
      rollback();
    }
  }
}

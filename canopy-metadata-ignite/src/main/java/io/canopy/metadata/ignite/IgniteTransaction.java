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
 * One DAL transaction on Ignite 3 (design 020). Tables not yet carried by this engine refuse to be used, naming
 * themselves: the engine is being built table by table (issue 18), and a namenode must not be started on it before
 * the contract suite passes.
 */
final class IgniteTransaction implements Transaction {
  private final IgniteSession session;
  private final IgniteInodeTable inodes;
  private final IgniteVariableTable variables;
  private final IgniteIdCounterTable idCounters;
  /** Flush order: fixed, so concurrent commits take their write locks in the same order. */
  private final List<IgniteBufferedTable> flushOrder;
  private boolean finished;

  IgniteTransaction(IgniteClient client, boolean readOnly) {
    this.session = new IgniteSession(client, readOnly);
    this.inodes = new IgniteInodeTable(client, session);
    this.variables = new IgniteVariableTable(client, session);
    this.idCounters = new IgniteIdCounterTable(client, session);
    this.flushOrder = List.of(inodes, variables, idCounters);
  }

  private static UnsupportedOperationException notYet(String table) {
    return new UnsupportedOperationException("the Ignite engine does not carry the table '" + table
        + "' yet (issue 18, design 020)");
  }

  @Override
  public InodeTable inodes() {
    return inodes;
  }

  @Override
  public AclTable acls() {
    throw notYet("acl_entries");
  }

  @Override
  public BlockTable blocks() {
    throw notYet("blocks");
  }

  @Override
  public BlockLookupTable blockLookup() {
    throw notYet("block_lookup");
  }

  @Override
  public ReplicaTable replicas() {
    throw notYet("replicas");
  }

  @Override
  public UcReplicaTable ucReplicas() {
    throw notYet("uc_replicas");
  }

  @Override
  public LeaseTable leases() {
    throw notYet("leases");
  }

  @Override
  public LeasePathTable leasePaths() {
    throw notYet("lease_paths");
  }

  @Override
  public DatanodeTable datanodes() {
    throw notYet("datanodes");
  }

  @Override
  public StorageTable storages() {
    throw notYet("storages");
  }

  @Override
  public InvalidationTable invalidations() {
    throw notYet("invalidated_blocks");
  }

  @Override
  public ReplicationQueueTable replicationQueue() {
    throw notYet("replication_queue");
  }

  @Override
  public RetryCacheTable retryCache() {
    throw notYet("retry_cache");
  }

  @Override
  public NamenodeTable namenodes() {
    throw notYet("namenodes");
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
    throw notYet("future_blocks");
  }

  @Override
  public XAttrTable xattrs() {
    throw notYet("xattrs");
  }

  @Override
  public SmallFileTable smallFiles() {
    throw notYet("small_file_inline/small_file_data");
  }

  @Override
  public QuotaTable quotas() {
    throw notYet("directory_quotas");
  }

  @Override
  public SubtreeOperationTable subtreeOperations() {
    throw notYet("subtree_operations");
  }

  @Override
  public ReadBatch batch() {
    throw notYet("read batches");
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

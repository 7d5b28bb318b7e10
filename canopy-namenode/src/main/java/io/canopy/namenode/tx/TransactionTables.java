package io.canopy.namenode.tx;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.BlockLookupTable;
import io.canopy.metadata.dal.BlockTable;
import io.canopy.metadata.dal.DatanodeTable;
import io.canopy.metadata.dal.FutureBlockTable;
import io.canopy.metadata.dal.IdCounterTable;
import io.canopy.metadata.dal.InvalidationTable;
import io.canopy.metadata.dal.LeasePathTable;
import io.canopy.metadata.dal.LeaseTable;
import io.canopy.metadata.dal.NamenodeTable;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.ReplicaTable;
import io.canopy.metadata.dal.ReplicationQueueTable;
import io.canopy.metadata.dal.SmallFileTable;
import io.canopy.metadata.dal.StorageTable;
import io.canopy.metadata.dal.SubtreeOperationTable;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.dal.UcReplicaTable;
import io.canopy.metadata.dal.VariableTable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** The transaction's tables as operations may reach them: only those of {@link ClusterTables}. */
final class TransactionTables implements ClusterTables {
  private final Transaction transaction;

  TransactionTables(Transaction transaction) {
    this.transaction = transaction;
  }

  @Override
  public BlockTable blocks() {
    return transaction.blocks();
  }

  @Override
  public SmallFileTable smallFiles() {
    return transaction.smallFiles();
  }

  @Override
  public BlockLookupTable blockLookup() {
    return transaction.blockLookup();
  }

  @Override
  public ReplicaTable replicas() {
    return transaction.replicas();
  }

  @Override
  public UcReplicaTable ucReplicas() {
    return transaction.ucReplicas();
  }

  @Override
  public LeaseTable leases() {
    return transaction.leases();
  }

  @Override
  public LeasePathTable leasePaths() {
    return transaction.leasePaths();
  }

  @Override
  public InvalidationTable invalidations() {
    return transaction.invalidations();
  }

  @Override
  public ReplicationQueueTable replicationQueue() {
    return transaction.replicationQueue();
  }

  @Override
  public DatanodeTable datanodes() {
    return transaction.datanodes();
  }

  @Override
  public StorageTable storages() {
    return transaction.storages();
  }

  @Override
  public VariableTable variables() {
    return transaction.variables();
  }

  @Override
  public IdCounterTable idCounters() {
    return transaction.idCounters();
  }

  @Override
  public FutureBlockTable futureBlocks() {
    return transaction.futureBlocks();
  }

  @Override
  public SubtreeOperationTable subtreeOperations() {
    return transaction.subtreeOperations();
  }

  @Override
  public NamenodeTable namenodes() {
    return transaction.namenodes();
  }

  @Override
  public List<OptionalLong> longVariables(List<String> names) throws StoreException {
    ReadBatch batch = transaction.batch();
    List<ReadBatch.Result<OptionalLong>> reads = new ArrayList<>(names.size());
    for (String name : names) {
      reads.add(batch.longVariable(name));
    }
    batch.execute();
    List<OptionalLong> values = new ArrayList<>(names.size());
    for (ReadBatch.Result<OptionalLong> read : reads) {
      values.add(read.get());
    }
    return values;
  }
}

package io.canopy.namenode.tx;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.DatanodeTable;
import io.canopy.metadata.dal.FutureBlockTable;
import io.canopy.metadata.dal.IdCounterTable;
import io.canopy.metadata.dal.NamenodeTable;
import io.canopy.metadata.dal.StorageTable;
import io.canopy.metadata.dal.SubtreeOperationTable;
import io.canopy.metadata.dal.VariableTable;
import java.util.List;
import java.util.OptionalLong;

/**
 * The cluster-wide tables, not under the inode hierarchy (datanodes, storages, variables, id counters, future blocks,
 * and the block-level tables read across files, by datanode or by block), handed out by
 * {@link TransactionContext#cluster}. Inodes, ACLs, attributes and quotas are not here: they change only through the
 * context's guarded methods.
 */
public interface ClusterTables extends FileTables {
  DatanodeTable datanodes();

  StorageTable storages();

  VariableTable variables();

  IdCounterTable idCounters();

  FutureBlockTable futureBlocks();

  /** The running subtree operations (design 017). */
  SubtreeOperationTable subtreeOperations();

  /**
   * The namenodes' membership descriptors: for an operation that must fence itself against its namenode's eviction
   * (a subtree operation's last transaction reads its own with a shared lock, design 017).
   */
  NamenodeTable namenodes();

  /** Several variables read without a lock in one round trip, in the order named (empty: never set). */
  List<OptionalLong> longVariables(List<String> names) throws StoreException;
}

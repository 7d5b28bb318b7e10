package io.canopy.namenode.tx;

import io.canopy.metadata.dal.BlockLookupTable;
import io.canopy.metadata.dal.BlockTable;
import io.canopy.metadata.dal.InvalidationTable;
import io.canopy.metadata.dal.LeasePathTable;
import io.canopy.metadata.dal.LeaseTable;
import io.canopy.metadata.dal.ReplicaTable;
import io.canopy.metadata.dal.ReplicationQueueTable;
import io.canopy.metadata.dal.SmallFileTable;
import io.canopy.metadata.dal.UcReplicaTable;

/**
 * The tables of a file's block-level rows, handed out by {@link TransactionContext#fileData} once the file's lock is
 * checked: these rows are locked implicitly through their file's inode. Inodes, ACLs, attributes and quotas are not
 * here: they change only through the context's guarded methods.
 */
public interface FileTables {
  BlockTable blocks();

  BlockLookupTable blockLookup();

  ReplicaTable replicas();

  UcReplicaTable ucReplicas();

  LeaseTable leases();

  LeasePathTable leasePaths();

  InvalidationTable invalidations();

  ReplicationQueueTable replicationQueue();

  /** The bytes of database-resident small files (design 016). */
  SmallFileTable smallFiles();
}

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/** abandonBlock: the writer gives up the last block it was allocated (its pipeline failed to start). */
public final class AbandonBlockOp implements Operation<Void> {
  private final DatanodeRegistry registry;
  private final FsPath path;
  private final long fileId;
  private final String holder;
  private final ExtendedBlock block;
  private final PermissionChecker permissions;

  public AbandonBlockOp(DatanodeRegistry registry, FsPath path, long fileId, String holder, ExtendedBlock block,
      PermissionChecker permissions) {
    this.registry = registry;
    this.path = path;
    this.fileId = fileId;
    this.holder = holder;
    this.block = block;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "abandonBlock";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(path, fileId, LockMode.EXCLUSIVE).withQuota(path);
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    Inode file = OpenFile.find(context, path, fileId, holder, permissions);
    Leases.check(file, holder, path.toString());
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = transaction.blocks().ofFile(file.id());
    Block last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    if (last == null || last.blockId() != block.getBlockId() || last.state() != BlockState.UNDER_CONSTRUCTION) {
      return null; // nothing to abandon: HDFS treats this as done
    }
    transaction.blocks().delete(last.key());
    transaction.blockLookup().delete(last.blockId());
    QuotaUpdater.chargeChangeOf(context, file, 0, -StorageSpace.ofBlock(file, last) * file.replication(), false);
    for (UcReplica replica : transaction.ucReplicas().ofFile(file.id())) {
      if (replica.blockId() == last.blockId()) {
        transaction.ucReplicas().delete(replica.key());
        DatanodeRegistry.Node node = registry.nodeOfStorage(replica.storageId());
        if (node != null) {
          transaction.invalidations().insert(new InvalidatedBlock(node.record().uuid(), last.blockId(),
              last.generationStamp(), 0));
        }
      }
    }
    return null;
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Whether a {@link CompleteOp} that answered "not yet" would now succeed: every block complete, or committed with
 * enough finalized replicas. The last block may still be under construction when it is the one the client names
 * (complete commits it): a complete() waiting for another namenode's report runs this before its first attempt
 * (design 018). Read-only (one snapshot, no lock, nothing written), so a complete() waiting inside the namenode for
 * the datanodes' confirmations polls with it instead of re-running the locking, committing complete.
 */
public final class CompleteReadinessOp implements Operation<Boolean> {
  private final NamespaceServices services;
  private final FsPath path;
  private final long fileId;
  /** The last block the client names, which complete commits (0: none). */
  private final long lastBlockId;

  public CompleteReadinessOp(NamespaceServices services, FsPath path, long fileId, long lastBlockId) {
    this.services = services;
    this.path = path;
    this.fileId = fileId;
    this.lastBlockId = lastBlockId;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public String name() {
    return "completeReadiness";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(path, fileId, LockMode.SHARED, true);
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    Inode file = fileId > 0 ? context.inodeLockedById() : context.path(path).target();
    if (file == null || file.directory()) {
      return true; // let complete itself give the error
    }
    FileData data = context.readFileData(file, LockMode.SHARED);
    Map<Long, Integer> counts = BlockCommit.replicaCounts(data);
    List<Block> blocks = data.blocks();
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      boolean committable = block.state() == BlockState.COMMITTED
          || block.state() == BlockState.UNDER_CONSTRUCTION && i == blocks.size() - 1
              && block.blockId() == lastBlockId;
      boolean ready = block.state() == BlockState.COMPLETE || committable
          && counts.getOrDefault(block.blockId(), 0) >= services.limits().minReplication();
      if (!ready) {
        return false;
      }
    }
    return true;
  }
}

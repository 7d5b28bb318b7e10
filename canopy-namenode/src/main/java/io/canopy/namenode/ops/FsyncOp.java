package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** fsync (hsync with length update): records how much of the last block readers may see. */
public final class FsyncOp implements Operation<Void> {
  private final FsPath path;
  private final long fileId;
  private final String holder;
  private final long lastBlockLength;
  private final PermissionChecker permissions;

  public FsyncOp(FsPath path, long fileId, String holder, long lastBlockLength, PermissionChecker permissions) {
    this.path = path;
    this.fileId = fileId;
    this.holder = holder;
    this.lastBlockLength = lastBlockLength;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "fsync";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(path, fileId, LockMode.EXCLUSIVE, true);
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    Inode file = OpenFile.find(context, path, fileId, holder, permissions);
    Leases.check(file, holder, path.toString());
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = new ArrayList<>(context.readFileData(file, LockMode.EXCLUSIVE).blocks());
    if (lastBlockLength > 0 && !blocks.isEmpty()) {
      Block last = blocks.get(blocks.size() - 1);
      if (last.state() == BlockState.UNDER_CONSTRUCTION && last.numBytes() < lastBlockLength) {
        Block synced = last.with(lastBlockLength, last.generationStamp(), last.state());
        transaction.blocks().update(synced);
        blocks.set(blocks.size() - 1, synced);
      }
    }
    context.updateInode(file.withSize(OpenFile.length(blocks)));
    return null;
  }
}

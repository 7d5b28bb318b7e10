package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/**
 * Where a directory held by a subtree operation is now (design 017): its path, walked up through its committed
 * parents. An ancestor above the held directory may have been renamed since the operation started (the flag does not
 * stop that); its last transaction locks the directory by the path it has then. Null when it is gone.
 */
public final class SubtreePathOp implements Operation<FsPath> {
  private final long inodeId;

  public SubtreePathOp(long inodeId) {
    this.inodeId = inodeId;
  }

  @Override
  public String name() {
    return "subtreePath";
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
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public FsPath execute(TransactionContext context) throws IOException {
    List<Inode> chain = SubtreeSteps.committedChain(context, inodeId);
    if (chain == null) {
      return null;
    }
    FsPath path = FsPath.ROOT;
    for (int i = chain.size() - 1; i >= 0; i--) {
      path = path.child(chain.get(i).name());
    }
    return path;
  }
}

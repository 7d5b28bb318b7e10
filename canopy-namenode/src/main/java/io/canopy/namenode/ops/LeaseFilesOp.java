package io.canopy.namenode.ops;

import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** One page of the files a lease holder has open, in inode id order (no locks: each is locked when released). */
public final class LeaseFilesOp implements ClusterRead<List<LeasePath>> {
  private final String holder;
  private final long afterInodeId;
  private final int limit;

  public LeaseFilesOp(String holder, long afterInodeId, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a page of lease paths needs a positive limit, got " + limit);
    }
    this.holder = holder;
    this.afterInodeId = afterInodeId;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "leaseFiles";
  }

  @Override
  public List<LeasePath> execute(TransactionContext context) throws IOException {
    return context.cluster().leasePaths().ofHolder(holder, afterInodeId, limit);
  }
}

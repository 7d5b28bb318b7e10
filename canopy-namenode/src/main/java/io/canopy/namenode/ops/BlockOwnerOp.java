package io.canopy.namenode.ops;

import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;

/** Finds which files blocks belong to (block lookup table), before locking those files by id. */
public final class BlockOwnerOp implements ClusterRead<Map<Long, Long>> {
  private final Collection<Long> blockIds;

  public BlockOwnerOp(Collection<Long> blockIds) {
    this.blockIds = blockIds;
  }

  @Override
  public String name() {
    return "blockLookup";
  }

  @Override
  public Map<Long, Long> execute(TransactionContext context) throws IOException {
    return context.cluster().blockLookup().inodesOf(blockIds);
  }
}

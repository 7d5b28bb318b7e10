package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * updateBlockForPipeline: a writer whose pipeline broke asks for a new generation stamp for its block. The stamp
 * is drawn from the database directly, so it exceeds every stamp any namenode handed out.
 */
public final class UpdateBlockForPipelineOp implements Operation<LocatedBlock> {
  private final NamespaceServices services;
  private final long inodeId;
  private final ExtendedBlock block;
  private final String holder;

  public UpdateBlockForPipelineOp(NamespaceServices services, long inodeId, ExtendedBlock block, String holder) {
    this.services = services;
    this.inodeId = inodeId;
    this.block = block;
    this.holder = holder;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "updateBlockForPipeline";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE);
  }

  @Override
  public LocatedBlock execute(TransactionContext context) throws IOException {
    Block current = PipelineBlocks.underConstruction(context, inodeId, block, holder);
    long newStamp = services.ids().nextGlobal(IdKind.GENERATION_STAMP);
    ExtendedBlock updated = new ExtendedBlock(block.getBlockPoolId(), current.blockId(), current.numBytes(),
        newStamp);
    return new LocatedBlock(updated, new DatanodeInfo[0]);
  }

  /** Shared checks of the pipeline-recovery calls. */
  static final class PipelineBlocks {
    private PipelineBlocks() {
    }

    static Block underConstruction(TransactionContext context, long inodeId, ExtendedBlock block, String holder)
        throws IOException {
      Inode file = context.inodeLockedById();
      if (file == null) {
        throw new IOException("Block " + block + " does not belong to any file (it was deleted)");
      }
      Leases.check(file, holder, file.name());
      Block current = context.fileData(file, LockMode.EXCLUSIVE).blocks()
          .get(new BlockKey(inodeId, block.getBlockId())).orElseThrow(() ->
              new IOException("Block " + block + " does not exist in file inode " + inodeId));
      if (current.state() != BlockState.UNDER_CONSTRUCTION) {
        throw new IOException("Block " + block + " is not under construction (state " + current.state() + ")");
      }
      if (current.generationStamp() != block.getGenerationStamp()) {
        throw new IOException("Block " + block + " has generation stamp " + block.getGenerationStamp()
            + " but the namenode expects " + current.generationStamp());
      }
      return current;
    }
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.VoidAtMostOnce;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/** updatePipeline: the writer rebuilt its pipeline; the block takes the new stamp, length and datanodes. */
public final class UpdatePipelineOp implements VoidAtMostOnce {
  // At most once, as HDFS declares it: a retry after a failover (its first run committed, the reply lost) would
  // otherwise fail on the generation stamp it already applied, and fail the client's write.

  private final long inodeId;
  private final String holder;
  private final ExtendedBlock oldBlock;
  private final ExtendedBlock newBlock;
  private final List<String> newStorageIds;

  public UpdatePipelineOp(long inodeId, String holder, ExtendedBlock oldBlock, ExtendedBlock newBlock,
      List<String> newStorageIds) {
    if (oldBlock.getBlockId() != newBlock.getBlockId()) {
      throw new IllegalArgumentException("updatePipeline: old block " + oldBlock + " and new block " + newBlock
          + " differ");
    }
    this.inodeId = inodeId;
    this.holder = holder;
    this.oldBlock = oldBlock;
    this.newBlock = newBlock;
    this.newStorageIds = newStorageIds;
  }

  @Override
  public String name() {
    return "updatePipeline";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE);
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    Block current = UpdateBlockForPipelineOp.PipelineBlocks.underConstruction(context, inodeId, oldBlock, holder);
    if (newBlock.getGenerationStamp() <= current.generationStamp()) {
      throw new IOException("updatePipeline of " + oldBlock + ": new generation stamp "
          + newBlock.getGenerationStamp() + " is not greater than " + current.generationStamp());
    }
    if (newBlock.getNumBytes() < current.numBytes()) {
      throw new IOException("updatePipeline of " + oldBlock + ": new length " + newBlock.getNumBytes()
          + " is shorter than " + current.numBytes());
    }
    FileTables transaction = context.fileData(context.inodeLockedById(), LockMode.EXCLUSIVE);
    transaction.blocks().update(current.with(newBlock.getNumBytes(), newBlock.getGenerationStamp(),
        current.state()));
    for (UcReplica replica : transaction.ucReplicas().ofFile(inodeId)) {
      if (replica.blockId() == current.blockId()) {
        transaction.ucReplicas().delete(replica.key());
      }
    }
    for (Replica replica : transaction.replicas().ofFile(inodeId)) {
      // a corrupt replica stays recorded: the leader deletes it on its datanode once the block is closed again
      if (replica.blockId() == current.blockId() && !replica.corrupt()
          && !newStorageIds.contains(replica.storageId())) {
        transaction.replicas().delete(replica.key());
      }
    }
    for (String storageId : newStorageIds) {
      transaction.ucReplicas().insert(new UcReplica(inodeId, current.blockId(), storageId, UcReplicaState.EXPECTED,
          newBlock.getGenerationStamp()));
    }
    return null;
  }
}

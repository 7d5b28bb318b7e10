package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.smallfiles.SmallBlock;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/**
 * The bytes of a database-resident block, for the namenode's small-file read endpoint (design 016): the file is found
 * by id (the block's id is its negated inode id) and read under a shared lock, its bytes with it. Empty when no file
 * holds that block any more (deleted, or rewritten: the endpoint then compares generation stamps). No permission is
 * checked, as a datanode checks none without block tokens: the caller learned the block from getBlockLocations.
 */
public final class ReadSmallBlockOp implements Operation<Optional<SmallBlock>> {
  private final long blockId;

  public ReadSmallBlockOp(long blockId) {
    SmallBlocks.inodeOf(blockId); // refuses a datanode block's id
    this.blockId = blockId;
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
    return "readSmallBlock";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(SmallBlocks.inodeOf(blockId), LockMode.SHARED).withFileDataAndSmallData();
  }

  @Override
  public Optional<SmallBlock> execute(TransactionContext context) throws IOException {
    Inode file = context.inodeLockedById();
    if (file == null || file.directory()) {
      return Optional.empty();
    }
    FileData data = context.readFileData(file, LockMode.SHARED);
    Block block = SmallBlocks.of(data.blocks());
    if (block == null || block.blockId() != blockId) {
      return Optional.empty();
    }
    byte[] bytes = SmallBlocks.storedBytes(data, context.fileData(file, LockMode.SHARED), file, "inode " + file.id());
    return Optional.of(new SmallBlock(bytes, block.generationStamp()));
  }
}

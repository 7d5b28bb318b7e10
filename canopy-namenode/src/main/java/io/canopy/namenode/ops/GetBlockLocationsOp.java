package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.Block;
import io.canopy.namenode.blocks.BlockLocator;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.smallfiles.SmallBlock;
import io.canopy.namenode.smallfiles.SmallBlockCache;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * getBlockLocations: the located blocks of a byte range of a file, read under a shared lock on the file. As in HDFS
 * the file must exist (else FileNotFoundException), then the caller needs execute on the ancestors and read on it.
 */
public final class GetBlockLocationsOp implements Operation<org.apache.hadoop.hdfs.protocol.LocatedBlocks> {
  private final BlockLocator locator;
  private final FsPath path;
  private final long offset;
  private final long length;
  private final PermissionChecker permissions;

  public GetBlockLocationsOp(BlockLocator locator, FsPath path, long offset, long length,
      PermissionChecker permissions) {
    checkRange(path, offset, length);
    this.locator = locator;
    this.path = path;
    this.offset = offset;
    this.length = length;
    this.permissions = permissions;
  }

  /** HDFS's checks of a read range, with its messages. */
  static void checkRange(FsPath path, long offset, long length) {
    if (offset < 0) {
      throw new IllegalArgumentException("Negative offset is not supported. File: " + path);
    }
    if (length < 0) {
      throw new IllegalArgumentException("Negative length is not supported. File: " + path);
    }
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
    return "getBlockLocations";
  }

  @Override
  public LockRequest locks() {
    // With the small-file endpoint on, a stock client's read of a small file comes right after: its bytes are read
    // with the lock (no round trip of their own), at the cost of two more index probes for other files.
    PathLock lock = PathLock.read(path);
    return LockRequest.of(locator.smallBlockCache() != null ? lock.withFileDataAndSmallData() : lock.withFileData());
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.LocatedBlocks execute(TransactionContext context) throws IOException {
    Located located = locate(context, locator, path, offset, length, permissions);
    readAheadSmallBlock(context, located);
    return located.blocks();
  }

  /**
   * A stock client reads a small file's block from this namenode's endpoint right after: its bytes are read now, in
   * this transaction, and left for that read (design 016), which then needs none of its own.
   */
  private void readAheadSmallBlock(TransactionContext context, Located located) throws IOException {
    SmallBlockCache cache = locator.smallBlockCache();
    List<Block> blocks = located.data().blocks();
    if (cache == null || located.file().underConstruction() || !SmallBlocks.whollySmall(blocks)) {
      return;
    }
    Block block = blocks.get(0);
    byte[] bytes = SmallBlocks.storedBytes(located.data(), context.fileData(located.file(), LockMode.SHARED),
        located.file(), path);
    cache.offer(block.blockId(), new SmallBlock(bytes, block.generationStamp()));
  }

  /** A file read for its located blocks: its inode, its block-level rows and the located blocks of the range. */
  record Located(Inode file, FileData data, LocatedBlocks blocks) {
  }

  /**
   * getBlockLocations' work, under the locks of {@link #locks()}: the file must exist (else FileNotFoundException),
   * then the caller needs execute on the ancestors and read on it.
   */
  static Located locate(TransactionContext context, BlockLocator locator, FsPath path, long offset, long length,
      PermissionChecker permissions) throws IOException {
    ResolvedPath resolved = context.path(path);
    Inode file = PathChecks.requireFile(resolved);
    permissions.checkPathAccess(context, resolved, FsAction.READ);
    FileData data = context.readFileData(file, LockMode.SHARED);
    List<UcReplica> pipeline = file.underConstruction() ? data.ucReplicas() : List.of();
    return new Located(file, data, locator.locate(file, data.blocks(), data.allReplicas(), pipeline, offset, length));
  }
}

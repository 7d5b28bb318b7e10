package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.BlockLocator;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * readSmallFile (Canopy's protocol, design 016): what an open needs, in one read-only transaction: the file's located
 * blocks from {@code offset} for {@code length} bytes as getBlockLocations answers them (same checks, same errors),
 * and, when the file is closed and its only block is database-resident, its bytes.
 */
public final class ReadSmallFileOp implements Operation<ReadSmallFileOp.Result> {
  /** The located blocks, and the file's bytes when they are stored in the database (else null). */
  public record Result(LocatedBlocks blocks, byte[] data) {
  }

  private final BlockLocator locator;
  private final FsPath path;
  private final long offset;
  private final long length;
  private final PermissionChecker permissions;

  public ReadSmallFileOp(BlockLocator locator, FsPath path, long offset, long length, PermissionChecker permissions) {
    GetBlockLocationsOp.checkRange(path, offset, length);
    this.locator = locator;
    this.path = path;
    this.offset = offset;
    this.length = length;
    this.permissions = permissions;
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
    return "readSmallFile";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.read(path).withFileDataAndSmallData());
  }

  @Override
  public Result execute(TransactionContext context) throws IOException {
    GetBlockLocationsOp.Located located = GetBlockLocationsOp.locate(context, locator, path, offset, length,
        permissions);
    Inode file = located.file();
    FileData data = located.data();
    LocatedBlocks blocks = located.blocks();
    if (file.underConstruction() || !SmallBlocks.whollySmall(data.blocks())) {
      return new Result(blocks, null);
    }
    byte[] bytes = SmallBlocks.storedBytes(data, context.fileData(file, LockMode.SHARED), file, path);
    if (bytes.length != file.size()) {
      throw new IOException("invariant: " + path + " is " + file.size() + " bytes long but " + bytes.length
          + " are stored in the database");
    }
    return new Result(blocks, bytes);
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * completeSmall (Canopy's protocol, design 016): closes a file its writer created (or reopened for append) through
 * ClientProtocol, with the bytes it wrote, in one transaction: the bytes are stored in the database with the file's
 * metadata, as its one database-resident block ({@link SmallBlocks}), instead of going to datanodes. An append adds to
 * the bytes already stored ({@code appendAt} of them). Bytes that would make the file larger than
 * {@code canopy.smallfiles.max-bytes}, or a file that holds blocks on datanodes, are declined without a change (the
 * writer then sends the bytes through datanodes).
 * A repeated call after a success answers stored again.
 */
public final class CompleteSmallOp implements Operation<CompleteSmallOp.Outcome> {
  /** What became of the bytes. */
  public enum Outcome {
    /** Stored and the file closed. */
    STORED,
    /**
     * Not stored, because the file would pass the threshold or already holds blocks on datanodes (an append to a file
     * written through them): nothing changed, the file is still open.
     */
    NOT_STORED
  }

  private final NamespaceServices services;
  private final FsPath path;
  private final long fileId;
  private final String holder;
  private final long appendAt;
  private final byte[] data;
  private final PermissionChecker permissions;

  public CompleteSmallOp(NamespaceServices services, FsPath path, long fileId, String holder, long appendAt,
      byte[] data, PermissionChecker permissions) {
    if (appendAt < 0) {
      throw new IllegalArgumentException("completeSmall of " + path + ": negative append offset " + appendAt);
    }
    this.services = services;
    this.path = path;
    this.fileId = fileId;
    this.holder = holder;
    this.appendAt = appendAt;
    this.data = data;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "completeSmall";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(path, fileId, LockMode.EXCLUSIVE, true).withQuota(path);
  }

  @Override
  public Outcome execute(TransactionContext context) throws IOException {
    Inode file = OpenFile.find(context, path, fileId, holder, permissions);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = data.blocks();
    long length = appendAt + this.data.length;
    if (!file.underConstruction() && !file.directory() && isRepeat(context, file, blocks, length)) {
      return Outcome.STORED;
    }
    Leases.check(file, holder, path.toString());
    Block previous = SmallBlocks.of(blocks);
    // a file's one block holds at most its preferred block size, as every HDFS block does
    if (length > Math.min(services.limits().smallFileMaxBytes(), file.preferredBlockSize())
        || blocks.size() != (previous == null ? 0 : 1)) {
      return Outcome.NOT_STORED;
    }
    long stored = previous == null ? 0 : previous.numBytes();
    if (stored != appendAt) {
      throw new IOException("completeSmall of " + path + ": the writer appends at byte " + appendAt
          + " but the file holds " + OpenFile.length(blocks) + " bytes in " + blocks.size() + " block(s)"
          + (previous == null ? "" : ", " + stored + " of them in the database"));
    }
    if (length > 0) {
      FileTables tables = context.fileData(file, LockMode.EXCLUSIVE);
      byte[] bytes = this.data;
      if (previous != null) {
        byte[] before = SmallBlocks.storedBytes(tables, file, path);
        bytes = new byte[(int) length];
        System.arraycopy(before, 0, bytes, 0, before.length);
        System.arraycopy(this.data, 0, bytes, before.length, this.data.length);
      }
      // the new bytes are charged once per replica, as HDFS charges a block's length
      QuotaUpdater.chargeChangeOf(context, file, 0, this.data.length * (long) file.replication(), true);
      // a rewrite's stamp must exceed every stamp handed out (the read endpoint serves the newest to older asks)
      SmallBlocks.store(tables, file, previous, bytes, previous == null
          ? services.ids().next(IdKind.GENERATION_STAMP) : services.ids().nextGlobal(IdKind.GENERATION_STAMP));
    }
    context.updateInode(file.closed(length, services.now()));
    Leases.remove(context, holder, Set.of(file));
    return Outcome.STORED;
  }

  /**
   * A closed file that holds exactly what this call would have left, these very bytes after {@code appendAt}: an
   * earlier attempt of it succeeded. (Length alone would take another writer's bytes of the same length for this
   * one's, after this writer lost its lease.)
   */
  private boolean isRepeat(TransactionContext context, Inode file, List<Block> blocks, long length)
      throws IOException {
    if (length == 0) {
      return blocks.isEmpty();
    }
    if (!SmallBlocks.whollySmall(blocks) || blocks.get(0).numBytes() != length) {
      return false;
    }
    byte[] stored = context.fileData(file, LockMode.EXCLUSIVE).smallFiles().get(file.id()).orElse(new byte[0]);
    return stored.length == length && java.util.Arrays.equals(stored, (int) appendAt, (int) length, data, 0,
        data.length);
  }
}

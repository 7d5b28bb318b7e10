package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;

/**
 * truncate (HDFS's FSDirTruncateOp, in place: no snapshots, so never copy-on-truncate): the blocks wholly beyond the
 * new length go at once, their replicas scheduled for deletion as delete does. When the new length falls on a block
 * boundary the file is done (true). Otherwise the block it falls in is put under recovery with the length it is cut
 * to, and the file is opened for the recovery holder ({@link LeaseLimits#RECOVERY_HOLDER}): the leader's lease monitor
 * issues the recovery id and sends the datanodes a truncate recovery, and commitBlockSynchronization closes the file
 * at the new length; the caller gets false and waits for the file to be closed.
 *
 * <p>Idempotent, as HDFS declares it: a re-run after it took effect finds the file at the new length (true) or being
 * truncated to it (false).
 */
public final class TruncateOp implements Operation<Boolean> {
  /** What the client asked for. */
  public record Request(FsPath path, long newLength, String holder, String clientMachine) {
  }

  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final Request request;
  private final PermissionChecker permissions;

  public TruncateOp(NamespaceServices services, DatanodeRegistry registry, Request request,
      PermissionChecker permissions) {
    this.services = services;
    this.registry = registry;
    this.request = request;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "truncate";
  }

  @Override
  public LockRequest locks() {
    // the recovery holder's lease comes with the locks: a truncate inside a block opens the file for it
    return LockRequest.of(PathLock.write(request.path).withFileData()).withLease(LeaseLimits.RECOVERY_HOLDER)
        .withQuota();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    FsPath path = request.path;
    long newLength = request.newLength;
    if (newLength < 0) {
      throw new HadoopIllegalArgumentException("Cannot truncate to a negative file size: " + newLength + ".");
    }
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    // HDFS's order: write on the file (execute on its ancestors) before the file checks
    permissions.checkPathAccess(context, resolved, FsAction.WRITE);
    Inode file = PathChecks.requireFile(resolved);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = data.blocks();
    Block last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    if (last != null && last.state() == BlockState.UNDER_RECOVERY && last.truncating()) {
      long truncatingTo = OpenFile.length(blocks) - last.numBytes() + last.truncateLength();
      if (newLength == truncatingTo) {
        return false; // the same truncate again: still waiting for the datanodes
      }
      throw new AlreadyBeingCreatedException(LeaseTakeover.message(LeaseTakeover.Purpose.TRUNCATE_FILE, path,
          request.holder, request.clientMachine, path + " is being truncated."));
    }
    long now = services.now();
    if (file.underConstruction()) {
      LeaseTakeover.requireRecoverable(context, path, file, request.holder, request.clientMachine,
          LeaseTakeover.Purpose.TRUNCATE_FILE, services.leaseLimits(), now);
      throw new LapsedWriterException(path, file.clientName(), LeaseTakeover.Purpose.TRUNCATE_FILE);
    }
    long oldLength = OpenFile.length(blocks);
    if (oldLength == newLength) {
      return true;
    }
    if (oldLength < newLength) {
      throw new HadoopIllegalArgumentException("Cannot truncate to a larger file size. Current size: " + oldLength
          + ", truncate size: " + newLength + ".");
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    int kept = 0;
    long keptLength = 0;
    while (kept < blocks.size() && keptLength < newLength) {
      keptLength += blocks.get(kept).numBytes();
      kept++;
    }
    List<Block> after = new ArrayList<>(blocks.subList(0, kept));
    Block truncating = null;
    if (keptLength != newLength) {
      Block cut = blocks.get(kept - 1);
      truncating = cut.truncatingTo(cut.numBytes() - (keptLength - newLength));
      // a database-resident block is cut at once, and charged its new length; a datanode block waits for recovery
      after.set(kept - 1, SmallBlocks.isSmall(cut.blockId())
          ? cut.with(truncating.truncateLength(), cut.generationStamp(), BlockState.COMPLETE) : truncating);
    }
    // HDFS's computeQuotaDeltaForTruncate, checked before anything changes: removed blocks give their space back,
    // the block being cut counts as a whole preferred block until commitBlockSynchronization closes it
    QuotaUpdater.chargeChangeOf(context, file, 0, StorageSpace.ofFile(file, after) - StorageSpace.ofFile(file, blocks),
        true);
    removeBlocks(transaction, data, blocks.subList(kept, blocks.size()));
    Inode truncated = file.withSize(newLength).withTimes(now, file.accessTime());
    if (truncating != null && SmallBlocks.isSmall(truncating.blockId())) {
      cutInDatabase(transaction, truncated, truncating);
      context.updateInode(truncated); // the bytes are cut in place: nothing waits for datanodes
      return true;
    }
    if (truncating == null) {
      context.updateInode(truncated); // on a block boundary: nothing for the datanodes to cut
      return true;
    }
    transaction.blocks().update(truncating);
    ReplicationQueue.dequeue(transaction, file.id(), truncating.blockId());
    Inode open = truncated.reopened(LeaseLimits.RECOVERY_HOLDER, request.clientMachine);
    context.updateInode(open);
    Leases.add(context, open, LeaseLimits.RECOVERY_HOLDER, now);
    return false;
  }

  /** Cuts a database-resident block's bytes to its truncate length, under a new generation stamp. */
  private void cutInDatabase(FileTables transaction, Inode file, Block cut) throws IOException {
    byte[] bytes = SmallBlocks.storedBytes(transaction, file, request.path);
    SmallBlocks.store(transaction, file, cut, Arrays.copyOf(bytes, (int) cut.truncateLength()),
        services.ids().nextGlobal(IdKind.GENERATION_STAMP)); // above every stamp handed out: a rewrite
  }

  /** Removes {@code removed} (blocks of the file), scheduling their replicas' deletion on their datanodes. */
  private void removeBlocks(FileTables transaction, FileData data, List<Block> removed)
      throws StoreException {
    Set<Long> ids = new HashSet<>();
    Set<String> scheduled = new HashSet<>();
    for (Block block : removed) {
      ids.add(block.blockId());
      transaction.blocks().delete(block.key());
      if (SmallBlocks.isSmall(block.blockId())) {
        transaction.smallFiles().delete(block.inodeId());
        continue;
      }
      transaction.blockLookup().delete(block.blockId());
      ReplicationQueue.dequeue(transaction, block.inodeId(), block.blockId());
    }
    for (Replica replica : data.allReplicas()) {
      if (ids.contains(replica.blockId())) {
        InodeRemover.invalidate(transaction, registry, replica, blockOf(removed, replica.blockId()), scheduled);
        transaction.replicas().delete(replica.key());
      }
    }
    for (UcReplica replica : data.ucReplicas()) {
      if (ids.contains(replica.blockId())) { // a closed file has none; kept in step should one be left
        transaction.ucReplicas().delete(replica.key());
      }
    }
  }

  private static Block blockOf(List<Block> blocks, long blockId) {
    for (Block block : blocks) {
      if (block.blockId() == blockId) {
        return block;
      }
    }
    throw new IllegalStateException("block " + blockId + " is not among the removed blocks");
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.AtMostOnce;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.ResultCodecs;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.ipc.RetriableException;

/**
 * append: opens a closed file for writing again, leased to the caller, under an exclusive lock on the file (HDFS's
 * FSDirAppendOp). A partial last block becomes under construction, its finalized replicas its expected pipeline, and
 * is handed back for the client to reopen (it bumps the generation stamp through updateBlockForPipeline and
 * updatePipeline, as for any pipeline recovery); with {@code NEW_BLOCK}, or when the last block is full, the client
 * starts a new block with addBlock. A file open by another writer past the soft limit is recovered first
 * ({@link LapsedWriterException}). At most once: a retried append is answered from the retry cache, since running it
 * again would find the file open by its own caller and fail.
 */
public final class AppendOp implements AtMostOnce<LastBlockWithStatus> {
  /** What the client asked for. */
  public record Request(FsPath path, String holder, String clientMachine, boolean newBlock) {
  }

  private final NamespaceServices services;
  private final BlockServices blocks;
  private final Request request;
  private final PermissionChecker permissions;

  public AppendOp(NamespaceServices services, BlockServices blocks, Request request, PermissionChecker permissions) {
    this.services = services;
    this.blocks = blocks;
    this.request = request;
    this.permissions = permissions;
  }

  @Override
  public byte[] encodeResult(LastBlockWithStatus result) {
    return ResultCodecs.encodeLastBlockWithStatus(result);
  }

  @Override
  public LastBlockWithStatus decodeResult(byte[] encoded) throws IOException {
    return ResultCodecs.decodeLastBlockWithStatus(encoded);
  }

  @Override
  public String name() {
    return "append";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(request.path).withFileData()).withLease(request.holder).withQuota();
  }

  @Override
  public LastBlockWithStatus execute(TransactionContext context) throws IOException {
    FsPath path = request.path;
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    Inode file = resolved.target();
    if (file != null && file.directory()) {
      throw new FileAlreadyExistsException("Cannot append to directory " + path + "; already exists as a directory.");
    }
    // HDFS's order: the directory error, then write on the file (execute on its ancestors), then a missing file
    permissions.checkPathAccess(context, resolved, FsAction.WRITE);
    if (file == null) {
      throw new FileNotFoundException("Failed to append to non-existent file " + path + " for client "
          + request.clientMachine);
    }
    long now = services.now();
    if (file.underConstruction()) {
      LeaseTakeover.requireRecoverable(context, path, file, request.holder, request.clientMachine,
          LeaseTakeover.Purpose.APPEND_FILE, services.leaseLimits(), now);
      throw new LapsedWriterException(path, file.clientName(), LeaseTakeover.Purpose.APPEND_FILE);
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> fileBlocks = data.blocks();
    Block last = fileBlocks.isEmpty() ? null : fileBlocks.get(fileBlocks.size() - 1);
    List<String> lastReplicas = last == null ? List.of() : storagesOf(last, data);
    // a database-resident last block is never reopened (it has no replicas to write on): the writer either adds to
    // its bytes through Canopy's completeSmall or starts a new block on datanodes after it (design 016)
    boolean smallLast = last != null && SmallBlocks.isSmall(last.blockId());
    if (last != null && !smallLast) {
      checkLastBlock(path, last, lastReplicas);
    }
    // HDFS's verifyQuotaForUCBlock: the rest of the last block, (preferred block size - its length) x replication,
    // must fit whenever there is a last block; it is charged only when the block is reopened in place (it then
    // counts as a whole preferred block, as a new block does, until complete commits it)
    long rest = last == null ? 0 : (file.preferredBlockSize() - last.numBytes()) * file.replication();
    boolean inPlace = last != null && !smallLast && !request.newBlock
        && last.numBytes() != file.preferredBlockSize();
    if (inPlace) {
      QuotaUpdater.chargeChangeOf(context, file, 0, rest, true);
    } else {
      QuotaUpdater.check(context, file, rest);
    }
    Inode open = file.reopened(request.holder, request.clientMachine);
    context.updateInode(open);
    Leases.add(context, open, request.holder, now);
    LocatedBlock located = null;
    if (last != null && request.newBlock) {
      // HDFS hands back the last block without locations: the client names it as the previous block to addBlock.
      located = new LocatedBlock(blocks.locator().extended(last), new DatanodeInfo[0]);
    } else if (inPlace) {
      located = reopenLastBlock(transaction, file, last, lastReplicas, OpenFile.length(fileBlocks));
    }
    return new LastBlockWithStatus(located,
        FileStatusFactory.status(open, resolved.effectiveStoragePolicy(request.path.depth())));
  }

  /** HDFS's checks before appending to a file whose last block is {@code last}. */
  private void checkLastBlock(FsPath path, Block last, List<String> replicas) throws IOException {
    if (last.state() == BlockState.COMMITTED) {
      throw new RetriableException(new NotReplicatedYetException("append: lastBlock=" + describe(last) + " of src="
          + path + " is COMMITTED but not yet COMPLETE."));
    }
    if (last.state() != BlockState.COMPLETE) {
      throw new IOException("append: lastBlock=" + describe(last) + " of src=" + path + " is " + last.state()
          + " in a closed file");
    }
    // HDFS's isSufficientlyReplicated: the minimum replication, or every live datanode when there are fewer.
    int live = liveCount(replicas);
    if (live < services.limits().minReplication() && live < blocks.registry().live().size()) {
      throw new IOException("append: lastBlock=" + describe(last) + " of src=" + path
          + " is not sufficiently replicated yet.");
    }
  }

  /**
   * The partial last block under construction again: its finalized replicas become its expected pipeline (their
   * rows move to the pipeline table, so complete counts only replicas the datanodes confirm after the append), it
   * leaves the replication queue, and it is located on its live holders at its offset in the file.
   */
  private LocatedBlock reopenLastBlock(FileTables transaction, Inode file, Block last, List<String> replicas,
      long fileLength) throws StoreException {
    Block reopened = last.with(last.numBytes(), last.generationStamp(), BlockState.UNDER_CONSTRUCTION);
    transaction.blocks().update(reopened);
    for (String storage : replicas) {
      transaction.replicas().delete(new Replica(file.id(), last.blockId(), storage).key());
      transaction.ucReplicas().insert(new UcReplica(file.id(), last.blockId(), storage, UcReplicaState.EXPECTED,
          last.generationStamp()));
    }
    ReplicationQueue.dequeue(transaction, file.id(), last.blockId());
    return blocks.locator().located(reopened, fileLength - last.numBytes(), replicas);
  }

  private static List<String> storagesOf(Block block, FileData data) {
    List<String> storages = new ArrayList<>();
    for (Replica replica : data.replicas()) {
      if (replica.blockId() == block.blockId()) {
        storages.add(replica.storageId());
      }
    }
    return storages;
  }

  private int liveCount(List<String> storages) throws StoreException {
    DatanodeRegistry registry = blocks.registry();
    int live = 0;
    for (String storage : storages) {
      DatanodeRegistry.Node node = registry.nodeOfStorage(storage);
      if (node != null && registry.isLive(node.record())) {
        live++;
      }
    }
    return live;
  }

  /** A block as HDFS prints one in append's messages. */
  private static String describe(Block block) {
    return "blk_" + block.blockId() + "_" + block.generationStamp();
  }
}

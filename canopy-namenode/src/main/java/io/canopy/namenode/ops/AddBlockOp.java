package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;

/**
 * addBlock: commits the writer's previous block and allocates the next one on chosen datanodes. A retried call
 * (same previous block, new block still empty) gets the block it was already given.
 */
public final class AddBlockOp implements Operation<LocatedBlock> {
  /** What the client asked for; {@code clientLocation}: where it declared it is (null: placed by its address). */
  public record Request(FsPath path, long fileId, String holder, ExtendedBlock previous, DatanodeInfo[] excluded,
      String clientAddress, NetworkLocation clientLocation) {
  }

  private final NamespaceServices services;
  private final BlockServices blocks;
  private final Request request;
  private final PermissionChecker permissions;

  public AddBlockOp(NamespaceServices services, BlockServices blocks, Request request,
      PermissionChecker permissions) {
    this.services = services;
    this.blocks = blocks;
    this.request = request;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "addBlock";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(request.path, request.fileId, LockMode.EXCLUSIVE, true).withQuota(request.path);
  }

  @Override
  public LocatedBlock execute(TransactionContext context) throws IOException {
    String path = request.path.toString();
    Inode file = OpenFile.find(context, request.path, request.fileId, request.holder, permissions);
    Leases.check(file, request.holder, path);
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> fileBlocks = new ArrayList<>(data.blocks());
    LocatedBlock retried = retriedAllocation(file, data, fileBlocks);
    if (retried != null) {
      return retried;
    }
    if (request.previous == null && !fileBlocks.isEmpty()
        && !fullAndComplete(file, fileBlocks.get(fileBlocks.size() - 1))) {
      throw new IOException("Cannot add a block to " + path + ": the client names no previous block but the file "
          + "has " + fileBlocks.size());
    }
    int minReplication = services.limits().minReplication();
    long spaceBefore = StorageSpace.ofFile(file, fileBlocks);
    if (request.previous != null) {
      Map<Long, Integer> counts = BlockCommit.replicaCounts(data);
      BlockCommit.commitLast(transaction, path, fileBlocks, request.previous, counts, minReplication);
    }
    if (fileBlocks.size() >= 2 && fileBlocks.get(fileBlocks.size() - 2).state() != BlockState.COMPLETE) {
      throw new NotReplicatedYetException("Not replicated yet: " + path);
    }
    services.limits().checkBlocksPerFile(fileBlocks.size()); // after the progress check, as HDFS
    Set<String> excluded = new HashSet<>();
    if (request.excluded != null) {
      for (DatanodeInfo node : request.excluded) {
        excluded.add(node.getDatanodeUuid());
      }
    }
    List<BlockPlacement.Target> targets = blocks.placement().choose(path, file.replication(), minReplication,
        excluded, request.clientAddress, request.clientLocation);
    // HDFS charges a whole preferred block per replica when it allocates one (and the committed previous block its
    // real length): checked against the quotas above, deepest first
    QuotaUpdater.chargeChangeOf(context, file, 0, StorageSpace.ofFile(file, fileBlocks) - spaceBefore
        + file.preferredBlockSize() * file.replication(), true);
    long offset = OpenFile.length(fileBlocks);
    Block block = new Block(file.id(), services.ids().next(IdKind.BLOCK), fileBlocks.size(), 0,
        services.ids().next(IdKind.GENERATION_STAMP), BlockState.UNDER_CONSTRUCTION);
    transaction.blocks().insert(block);
    transaction.blockLookup().insert(block.blockId(), file.id());
    List<String> storages = new ArrayList<>();
    for (BlockPlacement.Target target : targets) {
      transaction.ucReplicas().insert(new UcReplica(file.id(), block.blockId(), target.storage().storageId(),
          UcReplicaState.EXPECTED, block.generationStamp()));
      storages.add(target.storage().storageId());
    }
    context.updateInode(file.withSize(offset));
    return blocks.locator().located(block, offset, storages);
  }

  /**
   * An append that starts exactly at a block boundary gets no block from append and names no previous block to its
   * first addBlock (HDFS's analyzeFileState, case 1): the file's last block is then complete and full, or stored in
   * the database (a database-resident block is never reopened: what is appended after it goes to a new block).
   */
  private static boolean fullAndComplete(Inode file, Block block) {
    return block.state() == BlockState.COMPLETE
        && (block.numBytes() >= file.preferredBlockSize() || SmallBlocks.isSmall(block.blockId()));
  }

  /** The block handed out by an earlier attempt of this same call, or null. */
  private LocatedBlock retriedAllocation(Inode file, FileData data, List<Block> fileBlocks)
      throws IOException {
    if (fileBlocks.isEmpty()) {
      return null;
    }
    Block last = fileBlocks.get(fileBlocks.size() - 1);
    Block penultimate = fileBlocks.size() >= 2 ? fileBlocks.get(fileBlocks.size() - 2) : null;
    boolean samePrevious = request.previous == null ? penultimate == null || fullAndComplete(file, penultimate)
        : penultimate != null && penultimate.blockId() == request.previous.getBlockId();
    if (!samePrevious || last.state() != BlockState.UNDER_CONSTRUCTION || last.numBytes() != 0) {
      return null;
    }
    List<String> storages = new ArrayList<>();
    for (UcReplica replica : data.ucReplicas()) {
      if (replica.blockId() == last.blockId()) {
        storages.add(replica.storageId());
      }
    }
    return blocks.locator().located(last, OpenFile.length(fileBlocks) - last.numBytes(), storages);
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.replication.CorruptReplicas;
import io.canopy.namenode.replication.ReplicationQueue;
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
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * complete: commits the last block and closes the file once every block has reached minimum replication; answers
 * false (the client retries) while datanodes have not confirmed enough replicas yet. Repeating a successful
 * complete answers true. Closing queues the blocks still short of the file's replication for the leader.
 */
public final class CompleteOp implements Operation<Boolean> {
  private final NamespaceServices services;
  private final FsPath path;
  private final long fileId;
  private final String holder;
  private final ExtendedBlock last;
  private final PermissionChecker permissions;

  public CompleteOp(NamespaceServices services, FsPath path, long fileId, String holder, ExtendedBlock last,
      PermissionChecker permissions) {
    this.services = services;
    this.path = path;
    this.fileId = fileId;
    this.holder = holder;
    this.last = last;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "complete";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(path, fileId, LockMode.EXCLUSIVE, true).withQuota(path);
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    Inode file = OpenFile.find(context, path, fileId, holder, permissions);
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = new ArrayList<>(data.blocks());
    if (!file.underConstruction() && !file.directory() && isRepeat(blocks)) {
      return true;
    }
    Leases.check(file, holder, path.toString());
    int minReplication = services.limits().minReplication();
    Map<Long, Integer> counts = BlockCommit.replicaCounts(data);
    if (last != null) {
      long spaceBefore = StorageSpace.ofFile(file, blocks);
      BlockCommit.commitLast(transaction, path.toString(), blocks, last, counts, minReplication);
      // the committed block is charged its length instead of a whole preferred block (HDFS does not check this)
      QuotaUpdater.chargeChangeOf(context, file, 0, StorageSpace.ofFile(file, blocks) - spaceBefore, false);
    }
    for (Block block : blocks) {
      if (block.state() != BlockState.COMPLETE) {
        if (file.size() != OpenFile.length(blocks)) {
          context.updateInode(file.withSize(OpenFile.length(blocks)));
        }
        return false;
      }
    }
    queueShortBlocks(transaction, file, blocks, data);
    for (UcReplica replica : data.ucReplicas()) {
      transaction.ucReplicas().delete(replica.key());
    }
    Inode closed = file.closed(OpenFile.length(blocks), services.now());
    context.updateInode(closed);
    Leases.remove(context, holder, java.util.Set.of(file));
    return true;
  }

  /**
   * Queues the blocks of the file being closed that have fewer finalized replicas than its replication. When the
   * pipeline still holds enough datanodes whose reports are on their way, the leader waits the report grace first.
   */
  private void queueShortBlocks(FileTables transaction, Inode file, List<Block> blocks,
      FileData data) {
    Map<Long, Set<String>> finalized = ReplicationQueue.storagesByBlock(data.replicas());
    Map<Long, Set<String>> corrupt = ReplicationQueue.storagesByBlock(data.corruptReplicas());
    long now = services.now();
    for (Block block : blocks) {
      Set<String> recorded = finalized.getOrDefault(block.blockId(), Set.of());
      if (corrupt.containsKey(block.blockId())) {
        // corrupt replicas left from before an append: the leader deletes them once the block is replicated
        CorruptReplicas.queue(transaction, file.id(), block.blockId(), recorded.size(), file.replication(), now);
        continue;
      }
      if (recorded.size() >= file.replication()) {
        continue;
      }
      Set<String> expected = new HashSet<>(recorded);
      for (UcReplica replica : data.ucReplicas()) {
        if (replica.blockId() == block.blockId()) {
          expected.add(replica.storageId());
        }
      }
      long notBefore = expected.size() >= file.replication() ? now + services.replicationReportGraceMs() : now;
      ReplicationQueue.queue(transaction, file.id(), block.blockId(), recorded.size(), file.replication(), notBefore);
    }
  }

  private boolean isRepeat(List<Block> blocks) {
    Block lastBlock = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    return last == null ? lastBlock == null : lastBlock != null && lastBlock.blockId() == last.getBlockId()
        && lastBlock.generationStamp() == last.getGenerationStamp();
  }
}

package io.canopy.namenode.datanode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.replication.CorruptReplicas;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * reportBadBlocks (from a client whose read failed a checksum, or a datanode's block scanner): marks the named
 * replicas of one file's blocks corrupt, under the file's exclusive lock, and queues the blocks, for the leader to
 * copy them from a good replica and delete the corrupt ones when {@link CorruptReplicas#deletable} allows. A replica
 * that is not recorded (gone already, or a report of a block's older stamp) or already corrupt is left as it is.
 * Answers how many replicas it marked.
 */
public final class MarkCorruptReplicasOp implements Operation<Integer> {
  /** One replica a client or datanode reports bad: the block and stamp it read, the datanode and maybe the storage. */
  public record BadReplica(long blockId, long generationStamp, String datanodeUuid, String storageId) {
  }

  private static final Logger LOG = LoggerFactory.getLogger(MarkCorruptReplicasOp.class);

  private final long inodeId;
  private final List<BadReplica> reports;
  private final DatanodeRegistry registry;
  private final long nowMs;

  public MarkCorruptReplicasOp(long inodeId, List<BadReplica> reports, DatanodeRegistry registry, long nowMs) {
    this.inodeId = inodeId;
    this.reports = List.copyOf(reports);
    this.registry = registry;
    this.nowMs = nowMs;
  }

  @Override
  public String name() {
    return "reportBadBlocks";
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE).withFileData();
  }

  @Override
  public Integer execute(TransactionContext context) throws IOException {
    Inode file = context.inodeLockedById();
    if (file == null) {
      return 0; // deleted meanwhile: its replicas went with it
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    Map<Long, Block> blocks = new HashMap<>();
    data.blocks().forEach(b -> blocks.put(b.blockId(), b));
    Map<Long, List<Replica>> rows = new HashMap<>();
    data.allReplicas().forEach(r -> rows.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r));
    int marked = 0;
    for (BadReplica report : reports) {
      Block block = blocks.get(report.blockId());
      if (block == null || block.state() != BlockState.COMPLETE && block.state() != BlockState.COMMITTED
          || report.generationStamp() < block.generationStamp()) {
        LOG.info("Bad replica of block {} (stamp {}) on datanode {} ignored: the block is not a closed block of file "
            + "inode {} at that stamp", report.blockId(), report.generationStamp(), report.datanodeUuid(), inodeId);
        continue;
      }
      List<Replica> ofBlock = rows.getOrDefault(block.blockId(), new ArrayList<>());
      Replica replica = find(ofBlock, report);
      if (replica == null || replica.corrupt()) {
        continue;
      }
      mark(transaction, file, block, ofBlock, replica, report.datanodeUuid());
      marked++;
    }
    return marked;
  }

  /** The recorded replica the report names: on its storage, else the one on a storage of its datanode. */
  private Replica find(List<Replica> ofBlock, BadReplica report) throws IOException {
    for (Replica replica : ofBlock) {
      if (report.storageId() != null && !report.storageId().isEmpty()) {
        if (replica.storageId().equals(report.storageId())) {
          return replica;
        }
        continue;
      }
      DatanodeRegistry.Node node = registry.nodeOfStorage(replica.storageId());
      if (node != null && node.record().uuid().equals(report.datanodeUuid())) {
        return replica;
      }
    }
    return null;
  }

  private void mark(FileTables transaction, Inode file, Block block, List<Replica> ofBlock, Replica replica,
      String reportedUuid) throws IOException {
    DatanodeRegistry.Node holder = registry.nodeOfStorage(replica.storageId());
    String datanodeUuid = holder != null ? holder.record().uuid() : reportedUuid;
    Replica marked = replica.markedCorrupt(CorruptReason.CORRUPTION_REPORTED, block.generationStamp());
    transaction.replicas().update(marked);
    ofBlock.set(ofBlock.indexOf(replica), marked);
    long good = ofBlock.stream().filter(r -> !r.corrupt()).count();
    CorruptReplicas.queue(transaction, inodeId, block.blockId(), (int) good, file.replication(), nowMs);
    LOG.warn("Replica of block {} on datanode {} marked corrupt; {} good replica(s) left for a replication of {}: "
        + "the leader deletes it once that loses nothing", block.blockId(), datanodeUuid, good, file.replication());
  }
}

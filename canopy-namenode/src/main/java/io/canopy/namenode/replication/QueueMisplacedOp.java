package io.canopy.namenode.replication;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Queues, as {@link ReplicationPriority#MISPLACED}, those of a file's blocks the placement scan found all in one zone
 * or rack, after checking again under the file's exclusive lock, fenced by the leader term: the block is complete,
 * kept by datanodes, not queued already (a row of any priority leads the leader to count and spread it anyway), and
 * its live replicas still fail {@link ReplicaSpread}. Answers how many it queued.
 */
final class QueueMisplacedOp implements Operation<Integer> {
  private final long inodeId;
  private final Set<Long> blockIds;
  private final long term;
  private final ReplicationServices services;
  private final ReplicaSpread spread;

  QueueMisplacedOp(long inodeId, Set<Long> blockIds, long term, ReplicationServices services, ReplicaSpread spread) {
    this.inodeId = inodeId;
    this.blockIds = Set.copyOf(blockIds);
    this.term = term;
    this.services = services;
    this.spread = spread;
  }

  @Override
  public String name() {
    return "queueMisplacedBlocks";
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
    LeaderFence.check(context.cluster().variables(), term);
    Inode file = context.inodeLockedById();
    if (file == null || file.directory()) {
      return 0;
    }
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    Set<Long> queued = new HashSet<>();
    for (QueuedBlock row : transaction.replicationQueue().ofFile(inodeId)) {
      queued.add(row.blockId());
    }
    long now = services.now();
    int count = 0;
    for (Block block : data.blocks()) {
      long blockId = block.blockId();
      if (!blockIds.contains(blockId) || queued.contains(blockId) || block.state() != BlockState.COMPLETE
          || SmallBlocks.isSmall(blockId)) {
        continue;
      }
      List<Replica> ofBlock = new ArrayList<>();
      data.replicas().stream().filter(r -> r.blockId() == blockId).forEach(ofBlock::add);
      List<ReplicaHolder> live = new ArrayList<>();
      ReplicaHolder.of(ofBlock, services.registry()).stream().filter(ReplicaHolder::live).forEach(live::add);
      if (!live.isEmpty() && !spread.satisfied(ReplicaHolder.locations(live), file.replication())) {
        // short or over-replicated since the scan looked: queued as such (the repair spreads it all the same)
        ReplicationPriority priority = ReplicationQueue.priority(live.size(), file.replication());
        transaction.replicationQueue().put(new QueuedBlock(inodeId, blockId,
            priority != null ? priority : ReplicationPriority.MISPLACED, now));
        count++;
      }
    }
    return count;
  }
}

package io.canopy.namenode.replication;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The leader's look at the queued blocks of one file, under the file's exclusive lock and fenced by the leader term:
 * live replicas are counted again, then a block with exactly its replication leaves the queue, one with too many
 * loses its excess replicas (record deleted and deletion queued for the datanode, in this transaction), and one with
 * too few gets a copy scheduled from a live holder to new datanodes (handed out with the source's next heartbeat
 * once this commits). Nothing here ever deletes a good replica of a block that does not have more live replicas than
 * its replication, nor a corrupt one before the block has its replication in good ones; after a leader change,
 * deletions wait until the datanodes holding the block have sent this leader a full report. A block with its
 * replication whose replicas are all in one zone (or rack) while the cluster has more ({@link ReplicaSpread}) gets one
 * copy in another; the excess replica then goes from the crowded zone ({@link ExcessReplicas}).
 */
final class RepairBlocksOp implements Operation<List<BlockOutcome>> {
  private final long inodeId;
  private final long term;
  private final ReplicationServices services;
  private final int transferBudget;
  private final ReplicaSpread spread;

  RepairBlocksOp(long inodeId, long term, ReplicationServices services, int transferBudget, ReplicaSpread spread) {
    this.inodeId = inodeId;
    this.term = term;
    this.services = services;
    this.transferBudget = transferBudget;
    this.spread = spread;
  }

  @Override
  public String name() {
    return "repairBlocks";
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
  public List<BlockOutcome> execute(TransactionContext context) throws IOException {
    LeaderFence.check(context.cluster().variables(), term);
    List<QueuedBlock> queued = context.cluster().replicationQueue().ofFile(inodeId);
    List<BlockOutcome> outcomes = new ArrayList<>();
    Inode file = context.inodeLockedById();
    if (file == null || file.directory()) {
      for (QueuedBlock row : queued) {
        context.cluster().replicationQueue().delete(row.key());
        outcomes.add(BlockOutcome.of(inodeId, row.blockId(), BlockOutcome.Kind.GONE));
      }
      return outcomes;
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    Map<Long, Block> blocks = new HashMap<>();
    data.blocks().forEach(b -> blocks.put(b.blockId(), b));
    Map<Long, List<Replica>> replicas = new HashMap<>();
    data.replicas().forEach(r -> replicas.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r));
    Map<Long, List<Replica>> corrupt = new HashMap<>();
    data.corruptReplicas().forEach(r -> corrupt.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r));
    Planner planner = new Planner(transaction, file);
    long now = services.now();
    for (QueuedBlock row : queued) {
      Block block = blocks.get(row.blockId());
      if (row.notBeforeMs() > now) {
        outcomes.add(BlockOutcome.of(inodeId, row.blockId(), BlockOutcome.Kind.NOT_DUE));
      } else if (block == null || block.state() != BlockState.COMPLETE) {
        transaction.replicationQueue().delete(row.key());
        outcomes.add(BlockOutcome.of(inodeId, row.blockId(), BlockOutcome.Kind.GONE));
      } else {
        outcomes.add(planner.repair(row, block, ReplicaHolder.of(replicas.getOrDefault(block.blockId(), List.of()),
            services.registry()), ReplicaHolder.of(corrupt.getOrDefault(block.blockId(), List.of()),
            services.registry())));
      }
    }
    return outcomes;
  }

  /** Decides and writes, block by block, keeping count of the transfers it scheduled. */
  private final class Planner {
    private final FileTables transaction;
    private final Inode file;
    private final Map<String, Integer> scheduledFrom = new HashMap<>();
    private int transfersLeft = transferBudget;

    Planner(FileTables transaction, Inode file) {
      this.transaction = transaction;
      this.file = file;
    }

    /**
     * {@code holders} hold the block's good replicas, {@code corrupt} its corrupt ones: those count for nothing, are
     * never a source, and go only once the good ones reach the replication.
     */
    BlockOutcome repair(QueuedBlock row, Block block, List<ReplicaHolder> holders, List<ReplicaHolder> corrupt)
        throws StoreException {
      int replication = file.replication();
      List<ReplicaHolder> live = new ArrayList<>();
      holders.stream().filter(ReplicaHolder::live).forEach(live::add);
      if (live.size() > replication) {
        live = withoutDoomed(block, live);
      }
      List<ReplicaHolder> deletable = deletableCorrupt(live.size(), corrupt, replication);
      List<String> corruptRemoved = List.of();
      if (!deletable.isEmpty()) {
        if (!reportedToThisLeader(live, corrupt)) {
          return BlockOutcome.of(inodeId, block.blockId(), BlockOutcome.Kind.POSTPONED);
        }
        corruptRemoved = removeCorrupt(block, deletable);
        if (live.size() < replication || live.size() == replication && !spreadEnough(live, replication)) {
          // what is left of the block is copied on the next run; this one's deletions are reported now
          keepQueued(row, priority(live, replication));
          return new BlockOutcome(inodeId, block.blockId(), BlockOutcome.Kind.CORRUPT_REMOVED, null, corruptRemoved);
        }
      }
      if (live.size() == replication && !spreadEnough(live, replication)) {
        keepQueued(row, ReplicationPriority.MISPLACED);
        return copy(block, all(holders, corrupt), live, 1);
      }
      if (live.size() == replication) {
        transaction.replicationQueue().delete(row.key());
        return corruptRemoved.isEmpty() ? BlockOutcome.of(inodeId, block.blockId(), BlockOutcome.Kind.DONE)
            : new BlockOutcome(inodeId, block.blockId(), BlockOutcome.Kind.CORRUPT_REMOVED, null, corruptRemoved);
      }
      if (live.size() > replication) {
        if (!reportedToThisLeader(live, List.of())) {
          return BlockOutcome.of(inodeId, block.blockId(), BlockOutcome.Kind.POSTPONED);
        }
        BlockOutcome excess = removeExcess(row, block, live, replication);
        List<String> removed = new ArrayList<>(corruptRemoved);
        removed.addAll(excess.datanodes()); // every replica deleted in this transaction counts as doomed
        return new BlockOutcome(inodeId, block.blockId(), BlockOutcome.Kind.EXCESS_REMOVED, null, removed);
      }
      keepQueued(row, ReplicationQueue.priority(live.size(), replication));
      List<ReplicaHolder> all = all(holders, corrupt);
      if (live.isEmpty()) {
        List<String> holding = new ArrayList<>();
        all.forEach(h -> holding.add(h.uuid() == null ? h.replica().storageId() : h.uuid()));
        return new BlockOutcome(inodeId, block.blockId(), BlockOutcome.Kind.MISSING, null, holding);
      }
      return copy(block, all, live, replication - live.size());
    }

    /** Whether the live replicas span the failure domains they should ({@link ReplicaSpread}). */
    private boolean spreadEnough(List<ReplicaHolder> live, int replication) {
      return spread.satisfied(ReplicaHolder.locations(live), replication);
    }

    /** The queue priority of a block with {@code live} replicas: a mis-placed one stays queued as such. */
    private ReplicationPriority priority(List<ReplicaHolder> live, int replication) {
      ReplicationPriority priority = ReplicationQueue.priority(live.size(), replication);
      return priority == null && !spreadEnough(live, replication) ? ReplicationPriority.MISPLACED : priority;
    }

    private static List<ReplicaHolder> all(List<ReplicaHolder> holders, List<ReplicaHolder> corrupt) {
      List<ReplicaHolder> all = new ArrayList<>(holders);
      all.addAll(corrupt);
      return all;
    }

    /**
     * Whether every live datanode holding a replica of the block (good or corrupt) has sent this leader a full report
     * in its term: after a leader change, replica records may be out of date until then, and deleting on them could
     * take the last good copy (HDFS postpones such blocks after a failover for the same reason).
     */
    private boolean reportedToThisLeader(List<ReplicaHolder> live, List<ReplicaHolder> corrupt) {
      for (ReplicaHolder holder : live) {
        if (!services.fullReports().hasReported(term, holder.uuid())) {
          return false;
        }
      }
      for (ReplicaHolder holder : corrupt) {
        if (holder.live() && !services.fullReports().hasReported(term, holder.uuid())) {
          return false;
        }
      }
      return true;
    }

    /** The holders of the corrupt replicas {@link CorruptReplicas#deletable} lets go with {@code live} good ones. */
    private List<ReplicaHolder> deletableCorrupt(int live, List<ReplicaHolder> corrupt, int replication) {
      List<Replica> rows = new ArrayList<>();
      corrupt.forEach(holder -> rows.add(holder.replica()));
      Set<Replica> deletable = new HashSet<>(CorruptReplicas.deletable(live, rows, replication,
          services.settings().minReplication()));
      List<ReplicaHolder> holders = new ArrayList<>();
      for (ReplicaHolder holder : corrupt) {
        if (deletable.contains(holder.replica())) {
          holders.add(holder);
        }
      }
      return holders;
    }

    /** Removes corrupt replicas of the block (records deleted, deletions queued); answers their datanodes. */
    private List<String> removeCorrupt(Block block, List<ReplicaHolder> corrupt) {
      List<String> removed = new ArrayList<>();
      for (ReplicaHolder holder : corrupt) {
        transaction.replicas().delete(holder.replica().key());
        if (holder.uuid() != null) { // a storage no datanode reports any more: nothing to delete there
          transaction.invalidations().insert(new InvalidatedBlock(holder.uuid(), block.blockId(),
              holder.replica().corruptGenerationStamp(), block.numBytes()));
          removed.add(holder.uuid());
        }
      }
      return removed;
    }

    /**
     * The live replicas minus those the leader already removed or queued for deletion (a stale full report recorded
     * them again): their records go now, without a second deletion; the datanode deletes them anyway.
     */
    private List<ReplicaHolder> withoutDoomed(Block block, List<ReplicaHolder> live) throws StoreException {
      Set<String> doomed = doomedHolders(block, live.stream().map(ReplicaHolder::uuid).toList());
      List<ReplicaHolder> kept = new ArrayList<>();
      for (ReplicaHolder holder : live) {
        if (doomed.contains(holder.uuid())) {
          transaction.replicas().delete(holder.replica().key());
        } else {
          kept.add(holder);
        }
      }
      return kept;
    }

    /**
     * Which of {@code datanodes} are to delete their replica of the block: its deletion is queued for them, or this
     * leader removed it within the deletion grace (handed out, perhaps not done yet).
     */
    private Set<String> doomedHolders(Block block, List<String> datanodes) throws StoreException {
      Set<String> doomed = new HashSet<>(services.recentDeletions().of(block.blockId()));
      doomed.retainAll(datanodes);
      transaction.invalidations().ofBlock(block.blockId(), datanodes).forEach(i -> doomed.add(i.datanodeUuid()));
      return doomed;
    }

    private BlockOutcome removeExcess(QueuedBlock row, Block block, List<ReplicaHolder> live, int replication) {
      List<String> removed = new ArrayList<>();
      for (ReplicaHolder victim : ExcessReplicas.victims(live, live.size() - replication)) {
        transaction.replicas().delete(victim.replica().key());
        transaction.invalidations().insert(new InvalidatedBlock(victim.uuid(), block.blockId(),
            block.generationStamp(), block.numBytes()));
        removed.add(victim.uuid());
      }
      if (live.size() - removed.size() != replication || replication < 1) {
        throw new IllegalStateException("invariant: removing excess replicas of block " + block.blockId()
            + " would leave " + (live.size() - removed.size()) + " live replicas, not its replication " + replication);
      }
      List<ReplicaHolder> kept = new ArrayList<>(live);
      kept.removeIf(holder -> removed.contains(holder.uuid()));
      if (spreadEnough(kept, replication)) {
        transaction.replicationQueue().delete(row.key());
      } else {
        keepQueued(row, ReplicationPriority.MISPLACED); // all in one zone: copied to another on a later run
      }
      return new BlockOutcome(inodeId, block.blockId(), BlockOutcome.Kind.EXCESS_REMOVED, null, removed);
    }

    /**
     * Schedules a copy of the block to {@code wanted} new datanodes from its least busy live holder. A copy of a block
     * that has its replication but not its spread ({@code live} all in one zone) goes to another zone or nowhere.
     */
    private BlockOutcome copy(Block block, List<ReplicaHolder> holders, List<ReplicaHolder> live, int wanted)
        throws StoreException {
      PendingTransfers.Transfer pending = services.pending().of(block.blockId());
      Set<String> holding = new HashSet<>();
      holders.forEach(h -> holding.add(h.uuid()));
      Set<String> liveUuids = new HashSet<>();
      live.forEach(h -> liveUuids.add(h.uuid()));
      if (pending != null && liveUuids.contains(pending.sourceUuid())
          && pending.targets().stream().anyMatch(t -> !holding.contains(t.datanodeUuid()))) {
        return BlockOutcome.of(inodeId, block.blockId(), BlockOutcome.Kind.WAITING);
      }
      if (transfersLeft <= 0) {
        return BlockOutcome.of(inodeId, block.blockId(), BlockOutcome.Kind.OUT_OF_BUDGET);
      }
      ReplicaHolder source = leastBusy(live);
      if (source == null) {
        return BlockOutcome.of(inodeId, block.blockId(), BlockOutcome.Kind.SOURCES_BUSY);
      }
      // Never copy onto a datanode about to delete its old replica of the block: the deletion would take the copy.
      Set<String> excluded = new HashSet<>(holding);
      Set<String> doomed = doomedHolders(block, services.registry().live().stream().map(n -> n.record().uuid())
          .toList());
      excluded.addAll(doomed);
      List<BlockPlacement.Target> chosen = services.placement().chooseAdditional(wanted, excluded,
          live.stream().map(ReplicaHolder::uuid).toList());
      if (live.size() >= file.replication()) {
        List<NetworkLocation> held = ReplicaHolder.locations(live);
        chosen = chosen.stream().filter(t -> spread.addsDomain(t.node().location(), held)).toList();
      }
      if (chosen.isEmpty()) {
        // a datanode left out only while it deletes its old replica (a corrupt one just removed) is a target again
        // within the deletion grace: wait for it, rather than set the block aside as helpless for the idle backoff
        return BlockOutcome.of(inodeId, block.blockId(), holding.containsAll(doomed) ? BlockOutcome.Kind.NO_TARGET
            : BlockOutcome.Kind.WAITING);
      }
      List<PendingTransfers.Target> targets = new ArrayList<>();
      chosen.forEach(t -> targets.add(new PendingTransfers.Target(t.node().record().uuid(), t.storage().storageId())));
      transfersLeft--;
      scheduledFrom.merge(source.uuid(), 1, Integer::sum);
      return new BlockOutcome(inodeId, block.blockId(), BlockOutcome.Kind.TRANSFER_SCHEDULED,
          new PendingTransfers.Transfer(inodeId, block.blockId(), block.numBytes(), block.generationStamp(),
              source.uuid(), targets, services.now(), 0), List.of());
    }

    /** The live holder with the fewest transfers to run, if it may take one more (ties: smallest uuid). */
    private ReplicaHolder leastBusy(List<ReplicaHolder> live) {
      ReplicaHolder best = null;
      int bestLoad = Integer.MAX_VALUE;
      for (ReplicaHolder holder : live) {
        int load = services.pending().load(holder.uuid()) + scheduledFrom.getOrDefault(holder.uuid(), 0);
        if (load < services.settings().maxStreams()
            && (load < bestLoad || load == bestLoad && holder.uuid().compareTo(best.uuid()) < 0)) {
          best = holder;
          bestLoad = load;
        }
      }
      return best;
    }

    private void keepQueued(QueuedBlock row, ReplicationPriority priority) {
      if (priority != row.priority()) {
        transaction.replicationQueue().put(row.withPriority(priority));
      }
    }
  }
}

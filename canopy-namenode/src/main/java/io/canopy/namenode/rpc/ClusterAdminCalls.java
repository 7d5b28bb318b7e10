package io.canopy.namenode.rpc;

import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.datanode.ReplicaReportProcessor;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.ops.CheckAccessOp;
import io.canopy.namenode.ops.GetLocatedFileInfoOp;
import io.canopy.namenode.ops.OpenFilesOp;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.replication.CorruptReplicaPageOp;
import io.canopy.namenode.replication.QueuePageOp;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ECBlockGroupStats;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyState;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.protocol.SystemErasureCodingPolicies;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;

/**
 * The {@link ClientProtocol} calls administrators' tools make ({@code hdfs dfsadmin -report}, {@code -listOpenFiles},
 * {@code hdfs ec -listPolicies}, ...) and the informational calls clients make in passing, answered from the
 * database and the datanode view. Served through {@link ClientProtocolServer}.
 */
public final class ClusterAdminCalls {
  /** Replication-queue rows read per transaction while counting. */
  private static final int QUEUE_PAGE = 10_000;
  /** Invalidations counted per datanode at most: the count is for a report, not for accounting. */
  private static final int MAX_PENDING_DELETIONS_COUNTED = 100_000;
  /** listOpenFiles entries per batch, HDFS's default {@code dfs.namenode.list.openfiles.num.responses}. */
  private static final int OPEN_FILES_BATCH = 1000;
  /** Open files listOpenFiles reads to build one batch at most. */
  private static final int MAX_OPEN_FILES_SCANNED = 1_000_000;

  /** Corrupt replica rows read per transaction while counting. */
  private static final int CORRUPT_PAGE = 10_000;

  private final TransactionRunner runner;
  private final BlockServices blocks;
  private final NamespaceServices services;
  private final ReplicaReportProcessor reports;

  /** Whether located blocks carry block access tokens (design 022). */
  private final boolean blockTokensEnabled;

  public ClusterAdminCalls(TransactionRunner runner, BlockServices blocks, NamespaceServices services,
      ReplicaReportProcessor reports, boolean blockTokensEnabled) {
    this.blockTokensEnabled = blockTokensEnabled;
    this.runner = runner;
    this.blocks = blocks;
    this.services = services;
    this.reports = reports;
  }

  /**
   * A client's read found replicas whose checksums fail: they are marked corrupt (and deleted once the block has good
   * replicas enough), as HDFS does; any client may report, as in HDFS.
   */
  public void reportBadBlocks(LocatedBlock[] badBlocks) throws IOException {
    reports.reportBad(badBlocks);
  }

  private PermissionChecker permissions() {
    return PermissionChecker.of(services.permissions(), CallerInfo.caller());
  }

  /** A path's status with the locations of all of a file's blocks ({@code FileSystem.getFileBlockLocations}). */
  public HdfsLocatedFileStatus getLocatedFileInfo(String src, boolean needBlockToken) throws IOException {
    // with block access tokens on, blocks signed for reading go only to a caller who may read the file
    return (HdfsLocatedFileStatus) runner.run(new GetLocatedFileInfoOp(blocks.locator(),
        FsPath.parse("getLocatedFileInfo", src), permissions(), needBlockToken && blockTokensEnabled));
  }

  /**
   * Counts for {@code dfsadmin -report}: blocks in the replication queue by priority, blocks with corrupt replicas,
   * missing blocks of files with replication 1, bytes in blocks from the future (safe mode), invalidations waiting for
   * their datanodes.
   */
  public ReplicatedBlockStats getReplicatedBlockStats() throws IOException {
    long lowRedundancy = 0;
    long highest = 0;
    long missing = 0;
    Set<Long> missingFiles = new HashSet<>();
    List<Long> missingFileOfBlock = new ArrayList<>();
    QueuedBlock after = null;
    while (true) {
      List<QueuedBlock> page = runner.run(new QueuePageOp(after, QUEUE_PAGE));
      for (QueuedBlock block : page) {
        switch (block.priority()) {
          case HIGHEST -> {
            highest++;
            lowRedundancy++;
          }
          // HDFS counts its badly distributed blocks among the low-redundancy ones too
          case VERY_UNDER_REPLICATED, UNDER_REPLICATED, MISPLACED -> lowRedundancy++;
          case MISSING -> {
            missing++;
            missingFiles.add(block.inodeId());
            missingFileOfBlock.add(block.inodeId());
          }
          case EXCESS -> {
          }
          default -> throw new IllegalStateException("unknown priority " + block.priority());
        }
      }
      if (page.size() < QUEUE_PAGE) {
        break;
      }
      after = page.get(page.size() - 1);
    }
    Set<Long> replicationOne = missingFiles.isEmpty() ? Set.of() : runner.run(new ReplicationOneFiles(missingFiles));
    long missingReplicationOne = missingFileOfBlock.stream().filter(replicationOne::contains).count();
    return new ReplicatedBlockStats(lowRedundancy, corruptBlocks(), missing, missingReplicationOne,
        services.safeMode().state().futureBytes(), pendingDeletions(), null, highest);
  }

  /** Blocks with at least one corrupt replica. */
  private long corruptBlocks() throws IOException {
    Set<BlockKey> blocksSeen = new HashSet<>();
    ReplicaKey after = null;
    while (true) {
      List<Replica> page = runner.run(new CorruptReplicaPageOp(after, CORRUPT_PAGE));
      page.forEach(replica -> blocksSeen.add(new BlockKey(replica.inodeId(), replica.blockId())));
      if (page.size() < CORRUPT_PAGE) {
        return blocksSeen.size();
      }
      after = page.get(page.size() - 1).key();
    }
  }

  private long pendingDeletions() throws IOException {
    List<String> uuids = new ArrayList<>();
    for (DatanodeRegistry.Node node : blocks.registry().all()) {
      uuids.add(node.record().uuid());
    }
    return runner.run(new ClusterRead<Long>() {
      @Override
      public String name() {
        return "pendingDeletions";
      }

      @Override
      public Long execute(TransactionContext context) throws IOException {
        long count = 0;
        for (String uuid : uuids) {
          count += context.cluster().invalidations().ofDatanode(uuid, MAX_PENDING_DELETIONS_COUNTED).size();
        }
        return count;
      }
    });
  }

  /** Of the given files, those whose replication is 1. */
  private static final class ReplicationOneFiles implements ClusterRead<Set<Long>> {
    private final Set<Long> inodeIds;

    ReplicationOneFiles(Set<Long> inodeIds) {
      this.inodeIds = inodeIds;
    }

    @Override
    public String name() {
      return "replicationOneFiles";
    }

    @Override
    public Set<Long> execute(TransactionContext context) throws IOException {
      Set<Long> result = new HashSet<>();
      for (long id : inodeIds) {
        Inode file = context.unlockedInodeById(id).orElse(null);
        if (file != null && file.replication() == 1) {
          result.add(id);
        }
      }
      return result;
    }
  }

  /** Canopy has no erasure-coded files: every count is zero. */
  public ECBlockGroupStats getECBlockGroupStats() {
    return new ECBlockGroupStats(0, 0, 0, 0, 0, null, null);
  }

  /** Capacity, used and remaining space summed over the live datanodes. */
  public long[] getStats() throws IOException {
    long[] stats = new long[ClientProtocol.STATS_ARRAY_LENGTH];
    for (DatanodeRegistry.Node node : blocks.registry().live()) {
      stats[ClientProtocol.GET_STATS_CAPACITY_IDX] += node.record().capacity();
      stats[ClientProtocol.GET_STATS_USED_IDX] += node.record().dfsUsed();
      stats[ClientProtocol.GET_STATS_REMAINING_IDX] += node.record().remaining();
    }
    return stats;
  }

  /** hdfs dfsadmin -report: superuser only. */
  public DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type) throws IOException {
    permissions().checkSuperuser("datanodeReport");
    List<DatanodeInfo> report = new ArrayList<>();
    for (DatanodeRegistry.Node node : blocks.registry().all()) {
      boolean live = blocks.registry().isLive(node.record());
      boolean wanted = switch (type) {
        case ALL -> true;
        case LIVE -> live;
        case DEAD -> !live;
        default -> false; // decommissioning, entering maintenance, in maintenance: not supported, so none
      };
      if (wanted) {
        report.add(DatanodeRegistry.info(node.record()));
      }
    }
    return report.toArray(new DatanodeInfo[0]);
  }

  /** Each datanode with its storages' capacity and use, as {@code dfsadmin -report} and the balancer read them. */
  public DatanodeStorageReport[] getDatanodeStorageReport(HdfsConstants.DatanodeReportType type) throws IOException {
    permissions().checkSuperuser("getDatanodeStorageReport"); // HDFS's operation name
    List<DatanodeStorageReport> reports = new ArrayList<>();
    DatanodeRegistry registry = blocks.registry();
    for (DatanodeRegistry.Node node : registry.all()) {
      boolean live = registry.isLive(node.record());
      boolean wanted = switch (type) {
        case ALL -> true;
        case LIVE -> live;
        case DEAD -> !live;
        default -> false; // decommissioning and maintenance do not exist in Canopy
      };
      if (!wanted) {
        continue;
      }
      List<StorageReport> storages = new ArrayList<>();
      for (StorageRecord storage : node.storages()) {
        long nonDfsUsed = Math.max(0, storage.capacity() - storage.dfsUsed() - storage.remaining());
        storages.add(new StorageReport(new DatanodeStorage(storage.storageId(), DatanodeStorage.State.NORMAL,
            DatanodeRegistry.storageType(storage)), storage.failed(), storage.capacity(), storage.dfsUsed(),
            storage.remaining(), storage.blockPoolUsed(), nonDfsUsed));
      }
      reports.add(new DatanodeStorageReport(DatanodeRegistry.info(node.record()),
          storages.toArray(new StorageReport[0])));
    }
    return reports.toArray(new DatanodeStorageReport[0]);
  }

  /** Canopy does not rank datanodes by latency: no datanode is reported slow. */
  public DatanodeInfo[] getSlowDatanodeReport() {
    return new DatanodeInfo[0];
  }

  /** Only replication: the one policy every Canopy file has ({@code hdfs ec -listPolicies}). */
  public ErasureCodingPolicyInfo[] getErasureCodingPolicies() {
    return new ErasureCodingPolicyInfo[] {new ErasureCodingPolicyInfo(
        SystemErasureCodingPolicies.getReplicationPolicy(), ErasureCodingPolicyState.ENABLED)};
  }

  /** No erasure-coding codecs: Canopy stores replicated blocks only. */
  public Map<String, String> getErasureCodingCodecs() {
    return Map.of();
  }

  /**
   * Null, HDFS's answer for a replicated path, to a caller who may read it; FileNotFoundException ("Path not found")
   * when the path does not exist.
   */
  public ErasureCodingPolicy getErasureCodingPolicy(String src) throws IOException {
    runner.run(CheckAccessOp.readFor("getErasureCodingPolicy", FsPath.parse("getErasureCodingPolicy", src), true,
        permissions()));
    return null;
  }

  /** No rolling upgrade is ever in progress: HDFS's answer to QUERY then is null. */
  public RollingUpgradeInfo rollingUpgrade(HdfsConstants.RollingUpgradeAction action) throws IOException {
    permissions().checkSuperuser(switch (action) { // HDFS's operation names
      case QUERY -> "queryRollingUpgrade";
      case PREPARE -> "startRollingUpgrade";
      case FINALIZE -> "finalizeRollingUpgrade";
    });
    if (action == HdfsConstants.RollingUpgradeAction.QUERY) {
      return null;
    }
    throw new UnsupportedOperationException("Rolling upgrade " + action + " is not supported by Canopy: namenodes "
        + "are stateless and are upgraded by restarting them one at a time");
  }

  /** No upgrade waits to be finalized. */
  public boolean upgradeStatus() {
    return true;
  }

  /**
   * No data encryption key without block tokens, as HDFS answers; with them, {@code BlockTokenSigning} answers
   * from the block keys when {@code dfs.encrypt.data.transfer} is on.
   */
  public DataEncryptionKey getDataEncryptionKey() {
    return null;
  }

  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId) throws IOException {
    return listOpenFiles(prevId, EnumSet.of(OpenFilesType.ALL_OPEN_FILES), "/");
  }

  /** Files open for write, in inode id order; none block decommissioning (there is none). */
  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId, EnumSet<OpenFilesType> openFilesTypes, String path)
      throws IOException {
    permissions().checkSuperuser("listOpenFiles");
    if (!openFilesTypes.contains(OpenFilesType.ALL_OPEN_FILES)) {
      return new BatchedListEntries<>(List.of(), false);
    }
    OpenFilesOp.Page page = runner.run(new OpenFilesOp(prevId, path, OPEN_FILES_BATCH, MAX_OPEN_FILES_SCANNED));
    List<OpenFileEntry> entries = new ArrayList<>();
    for (OpenFilesOp.OpenFile file : page.files()) {
      entries.add(new OpenFileEntry(file.inodeId(), file.path(), file.holder(), file.clientMachine()));
    }
    return new BatchedListEntries<>(entries, page.hasMore());
  }
}

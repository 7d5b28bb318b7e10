package io.canopy.namenode.rpc;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.ops.AbandonBlockOp;
import io.canopy.namenode.ops.AddBlockOp;
import io.canopy.namenode.ops.BlockOwnerOp;
import io.canopy.namenode.ops.CompleteOp;
import io.canopy.namenode.ops.CompleteReadinessOp;
import io.canopy.namenode.ops.CreateOp;
import io.canopy.namenode.ops.DeleteOp;
import io.canopy.namenode.ops.FsyncOp;
import io.canopy.namenode.ops.GetAdditionalDatanodeOp;
import io.canopy.namenode.ops.GetBlockLocationsOp;
import io.canopy.namenode.ops.GetContentSummaryOp;
import io.canopy.namenode.ops.GetFileInfoOp;
import io.canopy.namenode.ops.GetListingOp;
import io.canopy.namenode.ops.MkdirsOp;
import io.canopy.namenode.ops.RecoverLeaseOp;
import io.canopy.namenode.ops.ReleaseOutcome;
import io.canopy.namenode.ops.Rename2Op;
import io.canopy.namenode.ops.RenameOp;
import io.canopy.namenode.ops.RenewLeaseOp;
import io.canopy.namenode.ops.SetOwnerOp;
import io.canopy.namenode.ops.SetPermissionOp;
import io.canopy.namenode.ops.SetReplicationOp;
import io.canopy.namenode.ops.SetTimesOp;
import io.canopy.namenode.ops.UpdateBlockForPipelineOp;
import io.canopy.namenode.ops.UpdatePipelineOp;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.util.DataChecksum;

/**
 * The {@link ClientProtocol} calls Canopy serves, each turned into one operation run by the transaction runner.
 * Exposed through {@link UnsupportedCallProxy}: calls not defined here answer "not supported".
 */
public final class ClientProtocolServer {
  /** A create that finds a file open past the soft limit which then vanishes is tried at most this often. */
  private static final int MAX_CREATE_ATTEMPTS = 3;

  private final NamespaceServices services;
  private final BlockServices blocks;
  private final TransactionRunner runner;
  private final FsServerDefaults serverDefaults;
  private final long completeWaitMs;
  /** At most half the handlers wait in complete(): the datanode reports they wait for need handlers too. */
  private final Semaphore completeWaiters;

  public ClientProtocolServer(Configuration conf, NamespaceServices services, BlockServices blocks,
      TransactionRunner runner) {
    this.services = services;
    this.blocks = blocks;
    this.runner = runner;
    this.completeWaitMs = conf.getLong(NameNodeConfig.COMPLETE_WAIT_MS, NameNodeConfig.COMPLETE_WAIT_MS_DEFAULT);
    this.completeWaiters = new Semaphore(Math.max(1,
        conf.getInt(NameNodeConfig.HANDLER_COUNT, NameNodeConfig.HANDLER_COUNT_DEFAULT) / 2));
    this.serverDefaults = new FsServerDefaults(
        conf.getLongBytes("dfs.blocksize", 128L * 1024 * 1024),
        conf.getInt("dfs.bytes-per-checksum", 512),
        conf.getInt("dfs.client-write-packet-size", 64 * 1024),
        (short) conf.getInt("dfs.replication", 3),
        conf.getInt("io.file.buffer.size", 4096),
        false,
        conf.getLong("fs.trash.interval", 0),
        DataChecksum.Type.valueOf(conf.get("dfs.checksum.type", "CRC32C")),
        "",
        HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED,
        false);
  }

  private DatanodeRegistry registry() {
    return blocks.registry();
  }

  public FsServerDefaults getServerDefaults() {
    return serverDefaults;
  }

  public HdfsFileStatus getFileInfo(String src) throws IOException {
    return runner.run(new GetFileInfoOp(FsPath.parse(src)));
  }

  public HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    return getFileInfo(src); // no symlinks yet: the link's status is the file's
  }

  public boolean isFileClosed(String src) throws IOException {
    HdfsFileStatus status = getFileInfo(src);
    if (status == null) {
      throw new FileNotFoundException("File does not exist: " + src);
    }
    if (status.isDirectory()) {
      throw new FileNotFoundException("Path is not a file: " + src); // HDFS's INodeFile.valueOf
    }
    return !runner.run(new GetBlockLocationsOp(blocks.locator(), FsPath.parse(src), 0, 0)).isUnderConstruction();
  }

  public long getPreferredBlockSize(String src) throws IOException {
    HdfsFileStatus status = getFileInfo(src);
    if (status == null || status.isDirectory()) {
      throw new FileNotFoundException("File does not exist or is not a file: " + src);
    }
    return status.getBlockSize();
  }

  public DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation) throws IOException {
    String after = startAfter == null ? "" : new String(startAfter, StandardCharsets.UTF_8);
    return runner.run(new GetListingOp(FsPath.parse(src), after, needLocation,
        services.limits().listingLimit(), blocks.locator()));
  }

  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    return runner.run(new MkdirsOp(services, FsPath.parse(src), masked, createParent, CallerInfo.user()));
  }

  public HdfsFileStatus create(String src, FsPermission masked, String clientName, EnumSetWritable<CreateFlag> flag,
      boolean createParent, short replication, long blockSize, CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName, String storagePolicy) throws IOException {
    EnumSet<CreateFlag> flags = flag.get();
    FsPath path = FsPath.parse(src);
    String clientMachine = CallerInfo.address();
    CreateOp create = new CreateOp(services, registry(), new CreateOp.Request(path, masked, clientName,
        clientMachine, flags.contains(CreateFlag.CREATE), flags.contains(CreateFlag.OVERWRITE), createParent,
        replication, blockSize, CallerInfo.user()));
    for (int attempt = 1; ; attempt++) {
      try {
        return runner.run(create, CallerInfo.call());
      } catch (CreateOp.WriterPastSoftLimitException pastSoftLimit) {
        // HDFS's startFile: the open file's lease is recovered, then the create fails.
        RecoverLeaseOp recover = RecoverLeaseOp.forCreate(services, path, clientName, clientMachine);
        ReleaseOutcome outcome = runner.run(recover);
        switch (outcome.kind()) {
          case CLOSED -> throw new FileAlreadyExistsException(src + " for client " + clientMachine
              + " already exists");
          case RECOVERING, IN_PROGRESS -> throw new RecoveryInProgressException(recover.message(
              "lease recovery is in progress. Try again later."));
          case WAITING -> throw new AlreadyBeingCreatedException(outcome.detail());
          case NOT_OPEN -> {
            if (attempt >= MAX_CREATE_ATTEMPTS) {
              throw new IOException("create of " + src + " for " + clientName + " raced " + attempt + " times with "
                  + "the file being created and removed by others; try again", pastSoftLimit);
            }
          }
          default -> throw new IllegalStateException("unexpected lease release outcome " + outcome);
        }
      }
    }
  }

  /**
   * recoverLease: starts the recovery of the file's lease whatever its writer's lease (HDFS's force); true when the
   * file is closed (it was, or could be closed at once), false while its last block is being recovered.
   */
  public boolean recoverLease(String src, String clientName) throws IOException {
    return runner.run(RecoverLeaseOp.recoverLease(services, FsPath.parse(src), clientName, CallerInfo.address()))
        .closed();
  }

  public LocatedBlock addBlock(String src, String clientName, ExtendedBlock previous, DatanodeInfo[] excludeNodes,
      long fileId, String[] favoredNodes, EnumSet<AddBlockFlag> addBlockFlags) throws IOException {
    return runner.run(new AddBlockOp(services, blocks, new AddBlockOp.Request(FsPath.parse(src), fileId,
        clientName, previous, excludeNodes, CallerInfo.address())));
  }

  public LocatedBlock getAdditionalDatanode(String src, long fileId, ExtendedBlock blk, DatanodeInfo[] existings,
      String[] existingStorageIDs, DatanodeInfo[] excludes, int numAdditionalNodes, String clientName)
      throws IOException {
    return runner.run(new GetAdditionalDatanodeOp(blocks, services.limits().minReplication(),
        new GetAdditionalDatanodeOp.Request(FsPath.parse(src), fileId, clientName, blk, existings,
            existingStorageIDs, excludes, numAdditionalNodes, CallerInfo.address())));
  }

  /**
   * The datanodes' confirmation of the last block usually arrives within milliseconds of the client's complete;
   * rather than answering false at once (the client then sleeps 400 ms before asking again), re-run the operation a
   * few times with a short, growing pause, within {@link NameNodeConfig#COMPLETE_WAIT_MS}.
   */
  public boolean complete(String src, String clientName, ExtendedBlock last, long fileId) throws IOException {
    CompleteOp complete = new CompleteOp(services, FsPath.parse(src), fileId, clientName, last);
    if (!completeWaiters.tryAcquire()) {
      return runner.run(complete); // enough handlers already wait: answer now, the client retries
    }
    try {
      return completeWithWait(complete, new CompleteReadinessOp(services, FsPath.parse(src), fileId));
    } finally {
      completeWaiters.release();
    }
  }

  /**
   * Runs complete; while it answers "not yet", polls with a read-only readiness check (no lock, no commit) and runs
   * complete again once the datanodes' confirmations are in, until {@code completeWaitMs} is spent.
   */
  private boolean completeWithWait(CompleteOp complete, CompleteReadinessOp readiness) throws IOException {
    long deadline = System.nanoTime() + completeWaitMs * 1_000_000L;
    long pauseMs = 2;
    if (runner.run(complete)) {
      return true;
    }
    while (true) {
      if (runner.run(readiness) && runner.run(complete)) {
        return true;
      }
      if (System.nanoTime() + pauseMs * 1_000_000L > deadline) {
        return false;
      }
      try {
        Thread.sleep(pauseMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      pauseMs = Math.min(pauseMs * 2, 64);
    }
  }

  public void abandonBlock(ExtendedBlock b, long fileId, String src, String holder) throws IOException {
    runner.run(new AbandonBlockOp(registry(), FsPath.parse(src), fileId, holder, b));
  }

  public void fsync(String src, long inodeId, String client, long lastBlockLength) throws IOException {
    runner.run(new FsyncOp(FsPath.parse(src), inodeId, client, lastBlockLength));
  }

  public LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    return runner.run(new GetBlockLocationsOp(blocks.locator(), FsPath.parse(src), offset, length));
  }

  public boolean delete(String src, boolean recursive) throws IOException {
    return runner.run(new DeleteOp(services, registry(), FsPath.parse(src), recursive), CallerInfo.call());
  }

  public boolean rename(String src, String dst) throws IOException {
    return runner.run(new RenameOp(services, registry(), FsPath.parse(src), FsPath.parse(dst)), CallerInfo.call());
  }

  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    boolean overwrite = options != null && Arrays.asList(options).contains(Options.Rename.OVERWRITE);
    runner.run(new Rename2Op(services, registry(), FsPath.parse(src), FsPath.parse(dst), overwrite),
        CallerInfo.call());
  }

  public void setPermission(String src, FsPermission permission) throws IOException {
    runner.run(new SetPermissionOp(FsPath.parse(src), permission));
  }

  public void setOwner(String src, String username, String groupname) throws IOException {
    runner.run(new SetOwnerOp(FsPath.parse(src), username, groupname));
  }

  public boolean setReplication(String src, short replication) throws IOException {
    return runner.run(new SetReplicationOp(services, FsPath.parse(src), replication));
  }

  public void setTimes(String src, long mtime, long atime) throws IOException {
    runner.run(new SetTimesOp(FsPath.parse(src), mtime, atime));
  }

  public void renewLease(String clientName, List<String> namespaces) throws IOException {
    runner.run(new RenewLeaseOp(services, clientName));
  }

  public ContentSummary getContentSummary(String path) throws IOException {
    return runner.run(new GetContentSummaryOp(FsPath.parse(path)));
  }

  public LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName) throws IOException {
    return runner.run(new UpdateBlockForPipelineOp(services, ownerOf(block), block, clientName));
  }

  public void updatePipeline(String clientName, ExtendedBlock oldBlock, ExtendedBlock newBlock,
      DatanodeID[] newNodes, String[] newStorageIDs) throws IOException {
    runner.run(new UpdatePipelineOp(ownerOf(oldBlock), clientName, oldBlock, newBlock,
        Arrays.asList(newStorageIDs)), CallerInfo.call());
  }

  private long ownerOf(ExtendedBlock block) throws IOException {
    Long owner = runner.run(new BlockOwnerOp(Set.of(block.getBlockId()))).get(block.getBlockId());
    if (owner == null) {
      throw new IOException("Block " + block + " does not belong to any file (it was deleted or never existed)");
    }
    return owner;
  }

  public long[] getStats() throws IOException {
    long[] stats = new long[ClientProtocol.STATS_ARRAY_LENGTH];
    for (DatanodeRegistry.Node node : registry().live()) {
      stats[ClientProtocol.GET_STATS_CAPACITY_IDX] += node.record().capacity();
      stats[ClientProtocol.GET_STATS_USED_IDX] += node.record().dfsUsed();
      stats[ClientProtocol.GET_STATS_REMAINING_IDX] += node.record().remaining();
    }
    return stats;
  }

  public DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type) throws IOException {
    List<DatanodeInfo> report = new ArrayList<>();
    for (DatanodeRegistry.Node node : registry().all()) {
      boolean live = registry().isLive(node.record());
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

  /** Canopy has no safe mode: every namenode serves as soon as it starts. GET and LEAVE answer "off". */
  public boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked) {
    return switch (action) {
      case SAFEMODE_GET, SAFEMODE_LEAVE, SAFEMODE_FORCE_EXIT -> false;
      default -> throw new UnsupportedOperationException("Safe mode action " + action + " is not supported by "
          + "Canopy: namenodes are stateless and never need safe mode");
    };
  }

  public void msync() {
    // every namenode reads the database directly: there is no stale state to catch up with
  }

  public HAServiceState getHAServiceState() {
    return HAServiceState.ACTIVE;
  }

  public Path getEnclosingRoot(String src) {
    FsPath.parse(src);
    return new Path("/"); // no encryption zones or mount points: everything is under the root
  }
}

package io.canopy.namenode.rpc;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.fs.NotSupported;
import io.canopy.namenode.fs.StorableText;
import io.canopy.namenode.fs.StoragePolicies;
import io.canopy.namenode.fs.XAttrLimits;
import io.canopy.namenode.ops.AbandonBlockOp;
import io.canopy.namenode.ops.AddBlockOp;
import io.canopy.namenode.ops.AppendOp;
import io.canopy.namenode.ops.BlockOwnerOp;
import io.canopy.namenode.ops.CheckAccessOp;
import io.canopy.namenode.ops.CompleteOp;
import io.canopy.namenode.ops.CompleteReadinessOp;
import io.canopy.namenode.ops.CompleteWorkflow;
import io.canopy.namenode.ops.ConcatOp;
import io.canopy.namenode.ops.CreateOp;
import io.canopy.namenode.ops.CreateSymlinkOp;
import io.canopy.namenode.ops.CreateWorkflow;
import io.canopy.namenode.ops.FsyncOp;
import io.canopy.namenode.ops.GetAclStatusOp;
import io.canopy.namenode.ops.GetAdditionalDatanodeOp;
import io.canopy.namenode.ops.GetBlockLocationsOp;
import io.canopy.namenode.ops.GetFileInfoOp;
import io.canopy.namenode.ops.GetListingOp;
import io.canopy.namenode.ops.GetStoragePolicyOp;
import io.canopy.namenode.ops.GetXAttrsOp;
import io.canopy.namenode.ops.IsFileClosedOp;
import io.canopy.namenode.ops.LapsedWriterWorkflow;
import io.canopy.namenode.ops.ListingCursors;
import io.canopy.namenode.ops.MkdirsOp;
import io.canopy.namenode.ops.ModifyAclEntriesOp;
import io.canopy.namenode.ops.RecoverLeaseOp;
import io.canopy.namenode.ops.RemoveAclEntriesOp;
import io.canopy.namenode.ops.RemoveAclOp;
import io.canopy.namenode.ops.RemoveDefaultAclOp;
import io.canopy.namenode.ops.RemoveXAttrOp;
import io.canopy.namenode.ops.RenewLeaseOp;
import io.canopy.namenode.ops.SafeModeOp;
import io.canopy.namenode.ops.SetAclOp;
import io.canopy.namenode.ops.SetOwnerOp;
import io.canopy.namenode.ops.SetPermissionOp;
import io.canopy.namenode.ops.SubtreeCalls;
import io.canopy.namenode.ops.SubtreeOperations;
import io.canopy.namenode.ops.SetQuotaOp;
import io.canopy.namenode.ops.SetReplicationOp;
import io.canopy.namenode.ops.SetStoragePolicyOp;
import io.canopy.namenode.ops.SetTimesOp;
import io.canopy.namenode.ops.SetXAttrOp;
import io.canopy.namenode.ops.TruncateOp;
import io.canopy.namenode.ops.UpdateBlockForPipelineOp;
import io.canopy.namenode.ops.UpdatePipelineOp;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.security.DelegationTokenCalls;
import io.canopy.namenode.tx.ClientCall;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ECBlockGroupStats;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.protocol.UnresolvedPathException;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.DataChecksum;

/**
 * Canopy's {@link ClientProtocol}, the RPC adapter of the client port: each call checks its arguments, builds its
 * operation and runs it through the transaction runner; calls that take several transactions run their workflow
 * ({@link CreateWorkflow}, {@link LapsedWriterWorkflow}, {@link CompleteWorkflow}). The administrators' calls are
 * {@link ClusterAdminCalls}', the calls Canopy does not serve {@link UnsupportedClientCalls}'. Failures leave
 * through {@link DatabaseErrorBoundary}.
 */
public final class ClientProtocolServer extends UnsupportedClientCalls {
  /** What the messages call a writer's name when it is one the database cannot store. */
  private static final String CLIENT_NAME = "client name";

  private final NamespaceServices services;
  private final BlockServices blocks;
  private final TransactionRunner runner;
  private final ClusterAdminCalls admin;
  private final FsServerDefaults serverDefaults;
  /** complete's wait for the last block's reports; at most half the client handlers wait in it at once. */
  private final CompleteWorkflow completes;
  private final boolean symlinksEnabled;
  private final XAttrLimits xattrLimits;
  private final StoragePolicies storagePolicies;
  /** Where this namenode's listings in progress stand (getListing's remaining entries without a count). */
  private final ListingCursors listingCursors = new ListingCursors();
  private final SubtreeCalls subtreeCalls;
  private final DelegationTokenCalls delegationTokens;

  /**
   * {@code subtreeOperations}: this namenode's subtree operations (design 017); {@code namenodeId}: its id in the
   * group, once it joined (they carry it); {@code delegationTokens}: the delegation-token calls (design 023).
   */
  public ClientProtocolServer(Configuration conf, NamespaceServices services, BlockServices blocks,
      TransactionRunner runner, ClusterAdminCalls admin, SubtreeOperations subtreeOperations,
      LongSupplier namenodeId, DelegationTokenCalls delegationTokens) {
    this.services = services;
    this.delegationTokens = delegationTokens;
    this.subtreeCalls = new SubtreeCalls(runner, services, blocks.registry(), subtreeOperations, namenodeId);
    this.blocks = blocks;
    this.runner = runner;
    this.admin = admin;
    this.completes = new CompleteWorkflow(runner, blocks.arrivals(),
        NameNodeConfig.completeWaitMs(conf),
        Math.max(1, NameNodeConfig.handlerCount(conf) / 2));
    this.symlinksEnabled = NameNodeConfig.symlinksEnabled(conf);
    this.xattrLimits = new XAttrLimits(conf);
    this.storagePolicies = new StoragePolicies(conf);
    this.serverDefaults = new FsServerDefaults(
        conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT),
        conf.getInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_DEFAULT),
        conf.getInt(HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_KEY,
            HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_DEFAULT),
        (short) conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT),
        conf.getInt(CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_KEY,
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_DEFAULT),
        // clients ask for data encryption keys when this says so (the keys come from the block keys)
        conf.getBoolean(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY, DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_DEFAULT)
            && conf.getBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY,
                DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_DEFAULT),
        conf.getLong(CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_KEY,
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_DEFAULT),
        DataChecksum.Type.valueOf(
            conf.get(DFSConfigKeys.DFS_CHECKSUM_TYPE_KEY, DFSConfigKeys.DFS_CHECKSUM_TYPE_DEFAULT)),
        "",
        HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED,
        false);
  }

  private DatanodeRegistry registry() {
    return blocks.registry();
  }

  /** The permission checks of the call being served, for its caller (groups resolved on this namenode). */
  private PermissionChecker permissions() {
    return PermissionChecker.of(services.permissions(), CallerInfo.caller());
  }

  @Override
  public FsServerDefaults getServerDefaults() {
    return serverDefaults;
  }

  @Override
  public HdfsFileStatus getFileInfo(String src) throws IOException {
    return runner.run(new GetFileInfoOp(FsPath.parse("getFileInfo", src), permissions()));
  }

  /** The status of the path itself: a link as the last component is not followed. */
  @Override
  public HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    return runner.run(new GetFileInfoOp(FsPath.parse("getFileLinkInfo", src), false, permissions()));
  }

  @Override
  public void createSymlink(String target, String link, FsPermission dirPerm, boolean createParent)
      throws IOException {
    runner.run(new CreateSymlinkOp(services, CreateSymlinkOp.Request.of(target, link, dirPerm, createParent,
        symlinksEnabled), permissions()), CallerInfo.call());
  }

  /**
   * HDFS's getLinkTarget: the target of a link as the last component, or, when a link comes earlier in the path,
   * the path with that link replaced by its target (what the client's link resolver continues with).
   */
  @Override
  public String getLinkTarget(String path) throws IOException {
    FsPath.parse("getLinkTarget", path); // this call's name on a refused path
    HdfsFileStatus status;
    try {
      status = getFileLinkInfo(path);
    } catch (UnresolvedPathException throughLink) {
      return throughLink.getResolvedPath().toString();
    }
    if (status == null) {
      throw new FileNotFoundException("File does not exist: " + path);
    }
    if (!status.isSymlink()) {
      throw new IOException("Path " + path + " is not a symbolic link");
    }
    return new String(status.getSymlinkInBytes(), StandardCharsets.UTF_8);
  }

  @Override
  public boolean isFileClosed(String src) throws IOException {
    return runner.run(new IsFileClosedOp(FsPath.parse("isFileClosed", src), permissions()));
  }

  /** HDFS does not follow a link as the last component here, and answers that it is not a file. */
  @Override
  public long getPreferredBlockSize(String src) throws IOException {
    HdfsFileStatus status = runner.run(GetFileInfoOp.forPreferredBlockSize(FsPath.parse("getPreferredBlockSize", src),
        permissions()));
    if (status == null) {
      throw new FileNotFoundException("File does not exist: " + src);
    }
    if (status.isDirectory() || status.isSymlink()) {
      throw new FileNotFoundException("Path is not a file: " + src);
    }
    return status.getBlockSize();
  }

  /**
   * HDFS lists the names after any start point, NUL bytes included. No name holds a NUL, and a NUL sorts before every
   * other character, so the names after {@code x\0...} are exactly those after {@code x}: the start point is cut at
   * its first NUL, which the database could not take, and the answer is HDFS's.
   */
  @Override
  public DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation) throws IOException {
    String after = startAfter == null ? "" : new String(startAfter, StandardCharsets.UTF_8);
    int nul = after.indexOf('\0');
    return runner.run(new GetListingOp(FsPath.parse("getListing", src), nul < 0 ? after : after.substring(0, nul),
        needLocation, services.limits().listingLimit(), blocks.locator(), listingCursors, permissions()));
  }

  @Override
  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    services.safeMode().check("Cannot create directory " + src);
    return runner.run(new MkdirsOp(services, FsPath.parse("mkdirs", src), masked, createParent, permissions()));
  }

  @Override
  public HdfsFileStatus create(String src, FsPermission masked, String clientName, EnumSetWritable<CreateFlag> flag,
      boolean createParent, short replication, long blockSize, CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName, String storagePolicy) throws IOException {
    services.safeMode().check("Cannot create file" + src); // sic: HDFS's message has no space
    StorableText.require(CLIENT_NAME, clientName);
    EnumSet<CreateFlag> flags = flag.get();
    FsPath path = FsPath.parse("create", src);
    String clientMachine = CallerInfo.address();
    // HDFS's FileSystem.createFile(...).storagePolicyName(...): the file's own policy, set as it is created
    byte policy = storagePolicy == null || storagePolicy.isEmpty() ? 0 : storagePolicies.byName(storagePolicy).getId();
    CreateOp create = new CreateOp(services, registry(), new CreateOp.Request(path, masked, clientName,
        clientMachine, flags.contains(CreateFlag.CREATE), flags.contains(CreateFlag.OVERWRITE), createParent,
        replication, blockSize, policy), permissions());
    return CreateWorkflow.run(runner, services, src, create, CallerInfo.call());
  }

  /**
   * recoverLease: starts the recovery of the file's lease whatever its writer's lease (HDFS's force); true when the
   * file is closed (it was, or could be closed at once), false while its last block is being recovered.
   */
  @Override
  public boolean recoverLease(String src, String clientName) throws IOException {
    services.safeMode().check("Cannot recover the lease of " + src);
    StorableText.require(CLIENT_NAME, clientName);
    return runner.run(RecoverLeaseOp.recoverLease(services, FsPath.parse("recoverLease", src), clientName,
        CallerInfo.address(), permissions())).closed();
  }

  /** append: at most once (a retry is answered from the retry cache); a writer past the soft limit is recovered. */
  @Override
  public LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag)
      throws IOException {
    services.safeMode().check("Cannot append to file" + src); // sic: HDFS's message has no space
    StorableText.require(CLIENT_NAME, clientName);
    AppendOp append = new AppendOp(services, blocks, new AppendOp.Request(FsPath.parse("append", src), clientName,
        CallerInfo.address(), flag != null && flag.get().contains(CreateFlag.NEW_BLOCK)), permissions());
    ClientCall call = CallerInfo.call();
    return LapsedWriterWorkflow.run(runner, services, src, clientName, CallerInfo.address(),
        () -> runner.run(append, call));
  }

  /**
   * truncate: true when the file is at its new length now, false while the datanodes cut its last block (the file
   * is closed by commitBlockSynchronization).
   */
  @Override
  public boolean truncate(String src, long newLength, String clientName) throws IOException {
    services.safeMode().check("Cannot truncate for " + src);
    StorableText.require(CLIENT_NAME, clientName);
    TruncateOp truncate = new TruncateOp(services, registry(), new TruncateOp.Request(FsPath.parse("truncate", src),
        newLength, clientName, CallerInfo.address()), permissions());
    return LapsedWriterWorkflow.run(runner, services, src, clientName, CallerInfo.address(),
        () -> runner.run(truncate));
  }

  @Override
  public void concat(String trg, String[] srcs) throws IOException {
    services.safeMode().check("Cannot concat " + trg);
    if (trg == null || trg.isEmpty()) {
      throw new IllegalArgumentException("Target file name is empty");
    }
    List<FsPath> sources = new ArrayList<>();
    for (String source : srcs == null ? new String[0] : srcs) {
      sources.add(FsPath.parse("concat", source));
    }
    runner.run(new ConcatOp(services, FsPath.parse("concat", trg), sources, permissions()), CallerInfo.call());
  }

  @Override
  public LocatedBlock addBlock(String src, String clientName, ExtendedBlock previous, DatanodeInfo[] excludeNodes,
      long fileId, String[] favoredNodes, EnumSet<AddBlockFlag> addBlockFlags) throws IOException {
    services.safeMode().check("Cannot add block to " + src);
    StorableText.require(CLIENT_NAME, clientName);
    return runner.run(new AddBlockOp(services, blocks, new AddBlockOp.Request(FsPath.parse("addBlock", src), fileId,
        clientName, previous, excludeNodes, CallerInfo.address(), blocks.clients().declared(Server.getClientId())),
        permissions()));
  }

  @Override
  public LocatedBlock getAdditionalDatanode(String src, long fileId, ExtendedBlock blk, DatanodeInfo[] existings,
      String[] existingStorageIDs, DatanodeInfo[] excludes, int numAdditionalNodes, String clientName)
      throws IOException {
    StorableText.require(CLIENT_NAME, clientName);
    return runner.run(new GetAdditionalDatanodeOp(blocks, services.limits().minReplication(),
        new GetAdditionalDatanodeOp.Request(FsPath.parse("getAdditionalDatanode", src), fileId, clientName, blk,
            existings, existingStorageIDs, excludes, numAdditionalNodes, CallerInfo.address(),
            blocks.clients().declared(Server.getClientId())), permissions()));
  }

  /** complete: waits a little for the last block's reports rather than answering "not yet" at once. */
  @Override
  public boolean complete(String src, String clientName, ExtendedBlock last, long fileId) throws IOException {
    services.safeMode().check("Cannot complete file " + src);
    StorableText.require(CLIENT_NAME, clientName);
    FsPath path = FsPath.parse("complete", src);
    return completes.run(new CompleteOp(services, path, fileId, clientName, last, permissions()),
        new CompleteReadinessOp(services, path, fileId, last == null ? 0 : last.getBlockId()), fileId, last);
  }

  @Override
  public void abandonBlock(ExtendedBlock b, long fileId, String src, String holder) throws IOException {
    services.safeMode().check("Cannot abandon block " + b + " for file" + src);
    StorableText.require(CLIENT_NAME, holder);
    runner.run(new AbandonBlockOp(registry(), FsPath.parse("abandonBlock", src), fileId, holder, b, permissions()));
  }

  @Override
  public void fsync(String src, long inodeId, String client, long lastBlockLength) throws IOException {
    services.safeMode().check("Cannot fsync file " + src);
    StorableText.require(CLIENT_NAME, client);
    runner.run(new FsyncOp(FsPath.parse("fsync", src), inodeId, client, lastBlockLength, permissions()));
  }

  @Override
  public LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    LocatedBlocks located = runner.run(new GetBlockLocationsOp(blocks.locator(),
        FsPath.parse("getBlockLocations", src), offset, length, permissions()));
    String clientIp = Server.getRemoteAddress();
    return blocks.readers().sort(located, blocks.readers().readerAt(blocks.clients().declared(Server.getClientId()),
        clientIp), clientIp);
  }

  @Override
  public boolean delete(String src, boolean recursive) throws IOException {
    services.safeMode().check("Cannot delete " + src);
    // a subtree too large for one transaction goes through the subtree protocol (design 017)
    return subtreeCalls.delete(FsPath.parse("delete", src), recursive, permissions(), CallerInfo.call());
  }

  @Override
  public boolean rename(String src, String dst) throws IOException {
    services.safeMode().check("Cannot rename " + src);
    return subtreeCalls.rename(FsPath.parse("rename", src), FsPath.parse("rename", dst), permissions(),
        CallerInfo.call());
  }

  @Override
  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    services.safeMode().check("Cannot rename " + src);
    boolean overwrite = options != null && Arrays.asList(options).contains(Options.Rename.OVERWRITE);
    // HDFS's rename2 refuses a destination past the limits with rename's message
    subtreeCalls.rename2(FsPath.parse("rename", src), FsPath.parse("rename", dst), overwrite, permissions(),
        CallerInfo.call());
  }

  @Override
  public void setPermission(String src, FsPermission permission) throws IOException {
    services.safeMode().check("Cannot set permission for " + src);
    runner.run(new SetPermissionOp(FsPath.parse("setPermission", src), permission, permissions()));
  }

  @Override
  public void setOwner(String src, String username, String groupname) throws IOException {
    services.safeMode().check("Cannot set owner for " + src);
    StorableText.require("user name", username);
    StorableText.require("group name", groupname);
    runner.run(new SetOwnerOp(FsPath.parse("setOwner", src), username, groupname, permissions()));
  }

  @Override
  public boolean setReplication(String src, short replication) throws IOException {
    services.safeMode().check("Cannot set replication for " + src);
    return runner.run(new SetReplicationOp(services, FsPath.parse("setReplication", src), replication, permissions()));
  }

  @Override
  public void setTimes(String src, long mtime, long atime) throws IOException {
    services.safeMode().check("Cannot set times " + src);
    runner.run(new SetTimesOp(FsPath.parse("setTimes", src), mtime, atime, permissions()));
  }

  @Override
  public void renewLease(String clientName, List<String> namespaces) throws IOException {
    services.safeMode().check("Cannot renew lease for " + clientName);
    StorableText.require(CLIENT_NAME, clientName);
    runner.run(new RenewLeaseOp(services, clientName));
  }

  @Override
  public ContentSummary getContentSummary(String path) throws IOException {
    return subtreeCalls.contentSummary(FsPath.parse("getContentSummary", path), permissions());
  }

  @Override
  public void setAcl(String src, List<AclEntry> aclSpec) throws IOException {
    runner.run(new SetAclOp(FsPath.parse("setAcl", src), aclSpec, permissions()));
  }

  @Override
  public void modifyAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    runner.run(new ModifyAclEntriesOp(FsPath.parse("modifyAclEntries", src), aclSpec, permissions()));
  }

  @Override
  public void removeAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    runner.run(new RemoveAclEntriesOp(FsPath.parse("removeAclEntries", src), aclSpec, permissions()));
  }

  @Override
  public void removeDefaultAcl(String src) throws IOException {
    runner.run(new RemoveDefaultAclOp(FsPath.parse("removeDefaultAcl", src), permissions()));
  }

  @Override
  public void removeAcl(String src) throws IOException {
    runner.run(new RemoveAclOp(FsPath.parse("removeAcl", src), permissions()));
  }

  @Override
  public AclStatus getAclStatus(String src) throws IOException {
    return runner.run(new GetAclStatusOp(FsPath.parse("getAclStatus", src), permissions()));
  }

  @Override
  public void checkAccess(String path, FsAction mode) throws IOException {
    runner.run(new CheckAccessOp(FsPath.parse("checkAccess", path), mode, permissions()));
  }

  /**
   * setQuota: superuser only (HDFS's dfs.permissions.allow.owner.set.quota is not supported); quotas by storage
   * type are not supported and say so.
   */
  @Override
  public void setQuota(String path, long namespaceQuota, long storagespaceQuota, StorageType type)
      throws IOException {
    permissions().checkSuperuser(quotaCommand(namespaceQuota, storagespaceQuota));
    SetQuotaOp.checkValues(namespaceQuota, storagespaceQuota);
    if (type != null) {
      throw new UnsupportedActionException("Failed to set quota by storage type " + type + " on " + path
          + ": Canopy does not support quotas by storage type (only namespace and storage-space quotas)");
    }
    subtreeCalls.setQuota(FsPath.parse("setQuota", path), namespaceQuota, storagespaceQuota, permissions());
  }

  /** HDFS's operation names for setQuota, as its audit log and superuser message use them. */
  private static String quotaCommand(long namespaceQuota, long storagespaceQuota) {
    if (namespaceQuota == HdfsConstants.QUOTA_RESET && storagespaceQuota == HdfsConstants.QUOTA_DONT_SET) {
      return "clearQuota";
    } else if (namespaceQuota == HdfsConstants.QUOTA_DONT_SET && storagespaceQuota == HdfsConstants.QUOTA_RESET) {
      return "clearSpaceQuota";
    } else if (storagespaceQuota == HdfsConstants.QUOTA_DONT_SET) {
      return "setQuota";
    }
    return "setSpaceQuota";
  }

  @Override
  public QuotaUsage getQuotaUsage(String path) throws IOException {
    return subtreeCalls.quotaUsage(FsPath.parse("getQuotaUsage", path), permissions());
  }

  @Override
  public LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName) throws IOException {
    services.safeMode().check("Cannot get a new generation stamp and an access token for block " + block);
    StorableText.require(CLIENT_NAME, clientName);
    return runner.run(new UpdateBlockForPipelineOp(services, ownerOf(block), block, clientName));
  }

  @Override
  public void updatePipeline(String clientName, ExtendedBlock oldBlock, ExtendedBlock newBlock,
      DatanodeID[] newNodes, String[] newStorageIDs) throws IOException {
    services.safeMode().check("Pipeline not updated");
    StorableText.require(CLIENT_NAME, clientName);
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

  /**
   * The cluster-wide safe mode ({@link io.canopy.namenode.fs.SafeMode}, manual and startup); answers whether it is on
   * afterwards.
   */
  @Override
  public boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked) throws IOException {
    io.canopy.namenode.fs.SafeMode safeMode = services.safeMode();
    if (action == HdfsConstants.SafeModeAction.SAFEMODE_GET) {
      return safeMode.isOn();
    }
    permissions().checkSuperuser(action.toString().toLowerCase(java.util.Locale.ROOT));
    io.canopy.namenode.safemode.SafeModeState state = runner.run(new SafeModeOp(action));
    safeMode.changed(state);
    return state.on();
  }

  @Override
  public void msync() {
    // every namenode reads the database directly: there is no stale state to catch up with
  }

  @Override
  public HAServiceState getHAServiceState() {
    return HAServiceState.ACTIVE;
  }

  // ---- extended attributes ----

  @Override
  public void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    runner.run(new SetXAttrOp(FsPath.parse("setXAttr", src), xAttr, flag, xattrLimits, permissions()),
        CallerInfo.call());
  }

  @Override
  public List<XAttr> getXAttrs(String src, List<XAttr> xAttrs) throws IOException {
    return runner.run(GetXAttrsOp.get(FsPath.parse("getXAttrs", src), xAttrs, xattrLimits, permissions()));
  }

  @Override
  public List<XAttr> listXAttrs(String src) throws IOException {
    return runner.run(GetXAttrsOp.list(FsPath.parse("listXAttrs", src), xattrLimits, permissions()));
  }

  @Override
  public void removeXAttr(String src, XAttr xAttr) throws IOException {
    runner.run(new RemoveXAttrOp(FsPath.parse("removeXAttr", src), xAttr, xattrLimits, permissions()),
        CallerInfo.call());
  }

  // ---- storage policies ----

  @Override
  public BlockStoragePolicy[] getStoragePolicies() {
    return storagePolicies.all();
  }

  @Override
  public void setStoragePolicy(String src, String policyName) throws IOException {
    storagePolicies.checkEnabled("set storage policy");
    PermissionChecker permissions = permissions();
    if (storagePolicies.superuserOnly()) {
      permissions.checkSuperuser("setStoragePolicy");
    }
    byte id = storagePolicies.byName(policyName).getId();
    runner.run(new SetStoragePolicyOp(FsPath.parse("setStoragePolicy", src), id, storagePolicies, permissions));
  }

  @Override
  public void unsetStoragePolicy(String src) throws IOException {
    storagePolicies.checkEnabled("unset storage policy");
    PermissionChecker permissions = permissions();
    if (storagePolicies.superuserOnly()) {
      permissions.checkSuperuser("unsetStoragePolicy");
    }
    runner.run(new SetStoragePolicyOp(FsPath.parse("unsetStoragePolicy", src), (byte) 0, storagePolicies,
        permissions));
  }

  @Override
  public BlockStoragePolicy getStoragePolicy(String path) throws IOException {
    return runner.run(new GetStoragePolicyOp(FsPath.parse("getStoragePolicy", path), storagePolicies,
        permissions()));
  }

  /** HDFS's storage policy satisfier moves blocks to their policy's storage types; Canopy has none. */
  @Override
  public void satisfyStoragePolicy(String path) throws IOException {
    storagePolicies.checkEnabled("satisfy storage policy");
    throw NotSupported.oneLine(new UnsupportedActionException("Cannot request to satisfy storage policy of " + path
        + ": Canopy has no storage policy satisfier (its block placement does not use storage types)"));
  }

  /** No encryption zones or mount points: everything is under the root, for a caller who may read the path. */
  @Override
  public Path getEnclosingRoot(String src) throws IOException {
    runner.run(CheckAccessOp.readFor("getEnclosingRoot", FsPath.parse("getEnclosingRoot", src), false,
        permissions()));
    return new Path("/");
  }

  // ---- administrators' and informational calls: ClusterAdminCalls ----

  @Override
  public long[] getStats() throws IOException {
    return admin.getStats();
  }

  @Override
  public DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type) throws IOException {
    return admin.getDatanodeReport(type);
  }

  @Override
  public DatanodeStorageReport[] getDatanodeStorageReport(HdfsConstants.DatanodeReportType type) throws IOException {
    return admin.getDatanodeStorageReport(type);
  }

  @Override
  public DatanodeInfo[] getSlowDatanodeReport() {
    return admin.getSlowDatanodeReport();
  }

  @Override
  public void reportBadBlocks(LocatedBlock[] badBlocks) throws IOException {
    admin.reportBadBlocks(badBlocks);
  }

  @Override
  public HdfsLocatedFileStatus getLocatedFileInfo(String src, boolean needBlockToken) throws IOException {
    return admin.getLocatedFileInfo(src, needBlockToken);
  }

  @Override
  public ReplicatedBlockStats getReplicatedBlockStats() throws IOException {
    return admin.getReplicatedBlockStats();
  }

  @Override
  public ECBlockGroupStats getECBlockGroupStats() {
    return admin.getECBlockGroupStats();
  }

  @Override
  public ErasureCodingPolicyInfo[] getErasureCodingPolicies() {
    return admin.getErasureCodingPolicies();
  }

  @Override
  public Map<String, String> getErasureCodingCodecs() {
    return admin.getErasureCodingCodecs();
  }

  @Override
  public ErasureCodingPolicy getErasureCodingPolicy(String src) throws IOException {
    return admin.getErasureCodingPolicy(src);
  }

  @Override
  public RollingUpgradeInfo rollingUpgrade(HdfsConstants.RollingUpgradeAction action) throws IOException {
    return admin.rollingUpgrade(action);
  }

  @Override
  public boolean upgradeStatus() {
    return admin.upgradeStatus();
  }

  @Override
  public DataEncryptionKey getDataEncryptionKey() {
    return admin.getDataEncryptionKey();
  }

  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    return delegationTokens.issue(renewer);
  }

  @Override
  public long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    return delegationTokens.renew(token);
  }

  @Override
  public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    delegationTokens.cancel(token);
  }

  @Override
  @Deprecated
  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId) throws IOException {
    return admin.listOpenFiles(prevId);
  }

  @Override
  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId, EnumSet<OpenFilesType> openFilesTypes, String path)
      throws IOException {
    return admin.listOpenFiles(prevId, openFilesTypes, path);
  }
}

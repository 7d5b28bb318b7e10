package io.canopy.namenode.rpc;

import io.canopy.namenode.fs.NotSupported;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.hdfs.inotify.EventBatchList;
import org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse;
import org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;
import org.apache.hadoop.hdfs.protocol.ECTopologyVerifierResult;
import org.apache.hadoop.hdfs.protocol.EncryptionZone;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.protocol.ZoneReencryptionStatus;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.token.Token;

/**
 * The {@link ClientProtocol} calls Canopy does not serve, each answered in one line without the namenode's stack
 * trace ({@link NotSupported}): {@code ClientProtocol.listCachePools is not supported by Canopy} (from
 * {@code hdfs cacheadmin -listPools}), and HDFS's own snapshot exception for the snapshot calls. The served calls
 * are {@link ClientProtocolServer}'s; the compiler checks that together they are the whole protocol.
 */
abstract class UnsupportedClientCalls implements ClientProtocol {

  private static UnsupportedOperationException unsupported(String call) {
    return NotSupported.oneLine(new UnsupportedOperationException("ClientProtocol." + call
        + " is not supported by Canopy"));
  }

  // ---- centralized cache management ----

  @Override
  public long addCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags) throws IOException {
    throw unsupported("addCacheDirective");
  }

  @Override
  public void modifyCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags) throws IOException {
    throw unsupported("modifyCacheDirective");
  }

  @Override
  public void removeCacheDirective(long id) throws IOException {
    throw unsupported("removeCacheDirective");
  }

  @Override
  public BatchedEntries<CacheDirectiveEntry> listCacheDirectives(long prevId, CacheDirectiveInfo filter)
      throws IOException {
    throw unsupported("listCacheDirectives");
  }

  @Override
  public void addCachePool(CachePoolInfo info) throws IOException {
    throw unsupported("addCachePool");
  }

  @Override
  public void modifyCachePool(CachePoolInfo info) throws IOException {
    throw unsupported("modifyCachePool");
  }

  @Override
  public void removeCachePool(String pool) throws IOException {
    throw unsupported("removeCachePool");
  }

  @Override
  public BatchedEntries<CachePoolEntry> listCachePools(String prevPool) throws IOException {
    throw unsupported("listCachePools");
  }

  // ---- erasure coding (Canopy replicates every block) ----

  @Override
  public AddErasureCodingPolicyResponse[] addErasureCodingPolicies(ErasureCodingPolicy[] policies)
      throws IOException {
    throw unsupported("addErasureCodingPolicies");
  }

  @Override
  public void removeErasureCodingPolicy(String policyName) throws IOException {
    throw unsupported("removeErasureCodingPolicy");
  }

  @Override
  public void enableErasureCodingPolicy(String policyName) throws IOException {
    throw unsupported("enableErasureCodingPolicy");
  }

  @Override
  public void disableErasureCodingPolicy(String policyName) throws IOException {
    throw unsupported("disableErasureCodingPolicy");
  }

  @Override
  public void setErasureCodingPolicy(String src, String policyName) throws IOException {
    throw unsupported("setErasureCodingPolicy");
  }

  @Override
  public void unsetErasureCodingPolicy(String src) throws IOException {
    throw unsupported("unsetErasureCodingPolicy");
  }

  @Override
  public ECTopologyVerifierResult getECTopologyResultForPolicies(String... policyNames) throws IOException {
    throw unsupported("getECTopologyResultForPolicies");
  }

  // ---- encryption zones ----

  @Override
  public void createEncryptionZone(String src, String keyName) throws IOException {
    throw unsupported("createEncryptionZone");
  }

  @Override
  public EncryptionZone getEZForPath(String src) throws IOException {
    throw unsupported("getEZForPath");
  }

  @Override
  public BatchedEntries<EncryptionZone> listEncryptionZones(long prevId) throws IOException {
    throw unsupported("listEncryptionZones");
  }

  @Override
  public void reencryptEncryptionZone(String zone, HdfsConstants.ReencryptAction action) throws IOException {
    throw unsupported("reencryptEncryptionZone");
  }

  @Override
  public BatchedEntries<ZoneReencryptionStatus> listReencryptionStatus(long prevId) throws IOException {
    throw unsupported("listReencryptionStatus");
  }

  // ---- HDFS's edit log, image and upgrade machinery (Canopy's state is the database) ----

  @Override
  public long getCurrentEditLogTxid() throws IOException {
    throw unsupported("getCurrentEditLogTxid");
  }

  @Override
  public EventBatchList getEditsFromTxid(long txid) throws IOException {
    throw unsupported("getEditsFromTxid");
  }

  @Override
  public long rollEdits() throws IOException {
    throw unsupported("rollEdits");
  }

  @Override
  public boolean saveNamespace(long timeWindow, long txGap) throws IOException {
    throw unsupported("saveNamespace");
  }

  @Override
  public boolean restoreFailedStorage(String arg) throws IOException {
    throw unsupported("restoreFailedStorage");
  }

  @Override
  public void finalizeUpgrade() throws IOException {
    throw unsupported("finalizeUpgrade");
  }

  @Override
  public void metaSave(String filename) throws IOException {
    throw unsupported("metaSave");
  }

  // ---- other administration and listing calls ----

  @Override
  public void refreshNodes() throws IOException {
    throw unsupported("refreshNodes");
  }

  @Override
  public void setBalancerBandwidth(long bandwidth) throws IOException {
    throw unsupported("setBalancerBandwidth");
  }

  @Override
  public CorruptFileBlocks listCorruptFileBlocks(String path, String cookie) throws IOException {
    throw unsupported("listCorruptFileBlocks");
  }

  @Override
  public BatchedDirectoryListing getBatchedListing(String[] srcs, byte[] startAfter, boolean needLocation)
      throws IOException {
    throw unsupported("getBatchedListing");
  }

  // ---- snapshots: HDFS's snapshot exception, naming the call and the directory ----

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    throw SnapshotsUnsupported.refuse("allowSnapshot", snapshotRoot);
  }

  @Override
  public void disallowSnapshot(String snapshotRoot) throws IOException {
    throw SnapshotsUnsupported.refuse("disallowSnapshot", snapshotRoot);
  }

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    throw SnapshotsUnsupported.refuse("createSnapshot", snapshotRoot);
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    throw SnapshotsUnsupported.refuse("deleteSnapshot", snapshotRoot);
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String snapshotOldName, String snapshotNewName)
      throws IOException {
    throw SnapshotsUnsupported.refuse("renameSnapshot", snapshotRoot);
  }

  @Override
  public SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    throw SnapshotsUnsupported.refuse("getSnapshottableDirListing", null);
  }

  @Override
  public SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    throw SnapshotsUnsupported.refuse("getSnapshotListing", snapshotRoot);
  }

  @Override
  public SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String fromSnapshot, String toSnapshot)
      throws IOException {
    throw SnapshotsUnsupported.refuse("getSnapshotDiffReport", snapshotRoot);
  }

  @Override
  public SnapshotDiffReportListing getSnapshotDiffReportListing(String snapshotRoot, String fromSnapshot,
      String toSnapshot, byte[] startPath, int index) throws IOException {
    throw SnapshotsUnsupported.refuse("getSnapshotDiffReportListing", snapshotRoot);
  }
}

package io.canopy.it.oracle;

import static io.canopy.it.oracle.OracleCall.once;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.io.Text;

/**
 * The {@code ClientProtocol} calls that take no path of the tree (administrators' and informational calls), as the
 * permission oracle makes them once per user. Actions that would leave a cluster changed are undone in the same call
 * (safe mode entered is left again).
 */
final class OracleClusterCalls {
  private OracleClusterCalls() {
  }

  /** {@code scratch}: a local directory metaSave may write into. */
  static List<OracleCall> all(Path scratch) {
    return List.of(
        once("getServerDefaults", call -> call.namenode().getServerDefaults()),
        once("getStats", call -> call.namenode().getStats()),
        once("getDatanodeReport", call -> call.namenode().getDatanodeReport(DatanodeReportType.ALL)),
        once("getDatanodeStorageReport", call -> call.namenode().getDatanodeStorageReport(DatanodeReportType.LIVE)),
        once("getReplicatedBlockStats", call -> call.namenode().getReplicatedBlockStats()),
        once("getECBlockGroupStats", call -> call.namenode().getECBlockGroupStats()),
        once("getSlowDatanodeReport", call -> call.namenode().getSlowDatanodeReport()),
        once("getStoragePolicies", call -> call.namenode().getStoragePolicies()),
        once("getErasureCodingPolicies", call -> call.namenode().getErasureCodingPolicies()),
        once("getErasureCodingCodecs", call -> call.namenode().getErasureCodingCodecs()),
        once("getHAServiceState", call -> call.namenode().getHAServiceState()),
        once("msync", call -> call.namenode().msync()),
        once("upgradeStatus", call -> call.namenode().upgradeStatus()),
        once("rollingUpgrade(QUERY)", call -> call.namenode().rollingUpgrade(RollingUpgradeAction.QUERY)),
        once("setSafeMode(GET)", call -> call.namenode().setSafeMode(SafeModeAction.SAFEMODE_GET, false)),
        once("setSafeMode(ENTER, then LEAVE)", call -> {
          call.namenode().setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
          call.namenode().setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
        }),
        once("listOpenFiles", call -> call.namenode().listOpenFiles(0)),
        once("listOpenFiles(under the tree)", call -> call.namenode().listOpenFiles(0,
            EnumSet.of(OpenFilesType.ALL_OPEN_FILES), call.root())),
        once("renewLease", call -> call.namenode().renewLease(call.clientName(), null)),
        once("getDataEncryptionKey", call -> call.namenode().getDataEncryptionKey()),
        once("reportBadBlocks(none)", call -> call.namenode().reportBadBlocks(new LocatedBlock[0]))
            .notServed("corrupt replicas are not tracked yet"),
        once("listCorruptFileBlocks", call -> call.namenode().listCorruptFileBlocks("/", null))
            .notServed("corrupt replicas are not tracked yet"),
        once("metaSave", call -> call.namenode().metaSave(scratch.resolve("metasave-" + call.user()).toString()))
            .notServed("no namesystem dump"),
        once("refreshNodes", call -> call.namenode().refreshNodes()).notServed("no include/exclude lists"),
        once("saveNamespace", call -> call.namenode().saveNamespace(0, 0)).notServed("no fsimage"),
        once("rollEdits", call -> call.namenode().rollEdits()).notServed("no edit log"),
        once("restoreFailedStorage", call -> call.namenode().restoreFailedStorage("check"))
            .notServed("no name directories"),
        once("finalizeUpgrade", call -> call.namenode().finalizeUpgrade()).notServed("no upgrade to finalize"),
        once("setBalancerBandwidth", call -> call.namenode().setBalancerBandwidth(1 << 20))
            .notServed("no balancer bandwidth"),
        once("getCurrentEditLogTxid", call -> call.namenode().getCurrentEditLogTxid()).notServed("no edit log"),
        once("getEditsFromTxid", call -> call.namenode().getEditsFromTxid(0)).notServed("no edit log"),
        once("listEncryptionZones", call -> call.namenode().listEncryptionZones(0))
            .notServed("no transparent encryption"),
        once("listReencryptionStatus", call -> call.namenode().listReencryptionStatus(0))
            .notServed("no transparent encryption"),
        once("addCachePool", call -> call.namenode().addCachePool(new CachePoolInfo("oracle-" + call.user())))
            .notServed("no centralized cache management"),
        once("listCachePools", call -> call.namenode().listCachePools(""))
            .notServed("no centralized cache management"),
        once("listCacheDirectives", call -> call.namenode().listCacheDirectives(0,
            new CacheDirectiveInfo.Builder().build())).notServed("no centralized cache management"),
        once("getSnapshottableDirListing", call -> call.namenode().getSnapshottableDirListing())
            .notServed("no snapshots"),
        once("addErasureCodingPolicies(none)", call -> call.namenode().addErasureCodingPolicies(
            new ErasureCodingPolicy[0])).notServed("files are replicated: no erasure coding"),
        once("disableErasureCodingPolicy", call -> call.namenode().disableErasureCodingPolicy("RS-10-4-1024k"))
            .notServed("files are replicated: no erasure coding"),
        once("getECTopologyResultForPolicies", call -> call.namenode().getECTopologyResultForPolicies())
            .notServed("files are replicated: no erasure coding"),
        once("getDelegationToken", call -> call.namenode().getDelegationToken(new Text(call.user()))));
  }
}

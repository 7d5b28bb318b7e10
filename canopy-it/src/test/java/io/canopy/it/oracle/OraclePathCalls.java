package io.canopy.it.oracle;

import static io.canopy.it.oracle.OracleCall.SHARED;
import static io.canopy.it.oracle.OracleCall.onPaths;

import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * The {@code ClientProtocol} calls that take a path, as the permission oracle makes them on every path of
 * {@link OracleTree}. Calls that change something change nothing a permission check looks at (the same mode, group,
 * owner, quota; an ACL entry granting nothing), or run in a round of their own on a fresh tree.
 */
final class OraclePathCalls {
  /** A named user who is not one of the oracle's callers: an ACL entry for it changes no caller's access. */
  private static final String NOBODY = "dave";
  private static final byte[] EMPTY = new byte[0];

  private OraclePathCalls() {
  }

  static List<OracleCall> reads() {
    return List.of(
        onPaths("getFileInfo", SHARED, call -> call.namenode().getFileInfo(call.path())),
        onPaths("getFileLinkInfo", SHARED, call -> call.namenode().getFileLinkInfo(call.path())),
        onPaths("getLinkTarget", SHARED, call -> call.namenode().getLinkTarget(call.path())),
        onPaths("getListing", SHARED, call -> call.namenode().getListing(call.path(), EMPTY, false)),
        onPaths("getBlockLocations", SHARED, call -> call.namenode().getBlockLocations(call.path(), 0, 1)),
        onPaths("getLocatedFileInfo", SHARED, call -> call.namenode().getLocatedFileInfo(call.path(), false)),
        onPaths("getFileChecksum", SHARED, call -> call.fs().getFileChecksum(new Path(call.path()))),
        onPaths("getContentSummary", SHARED, call -> call.namenode().getContentSummary(call.path())),
        onPaths("getQuotaUsage", SHARED, call -> call.namenode().getQuotaUsage(call.path())),
        onPaths("getXAttrs", SHARED, call -> call.namenode().getXAttrs(call.path(),
            List.of(OracleTree.xattr(OracleTree.XATTR)))),
        onPaths("getXAttrs(all)", SHARED, call -> call.namenode().getXAttrs(call.path(), null)),
        onPaths("listXAttrs", SHARED, call -> call.namenode().listXAttrs(call.path())),
        onPaths("getAclStatus", SHARED, call -> call.namenode().getAclStatus(call.path())),
        onPaths("getStoragePolicy", SHARED, call -> call.namenode().getStoragePolicy(call.path())),
        onPaths("getPreferredBlockSize", SHARED, call -> call.namenode().getPreferredBlockSize(call.path())),
        onPaths("isFileClosed", SHARED, call -> call.namenode().isFileClosed(call.path())),
        onPaths("checkAccess(READ_EXECUTE)", SHARED,
            call -> call.namenode().checkAccess(call.path(), FsAction.READ_EXECUTE)),
        onPaths("checkAccess(WRITE)", SHARED, call -> call.namenode().checkAccess(call.path(), FsAction.WRITE)),
        onPaths("getErasureCodingPolicy", SHARED, call -> call.namenode().getErasureCodingPolicy(call.path())),
        onPaths("getEnclosingRoot", SHARED, call -> call.namenode().getEnclosingRoot(call.path())),
        onPaths("getBatchedListing", SHARED, call -> call.namenode().getBatchedListing(new String[] {call.path()},
            EMPTY, false)).notServed("batched listings: only batchedListStatusIterator calls it"),
        onPaths("getEZForPath", SHARED, call -> call.namenode().getEZForPath(call.path()))
            .notServed("no transparent encryption"));
  }

  /** Writes that leave every permission as it was, in the shared round after the reads, in this order. */
  static List<OracleCall> sharedWrites() {
    return List.of(
        onPaths("setTimes", SHARED, call -> call.namenode().setTimes(call.path(), 1_000_000L, -1)),
        onPaths("setReplication", SHARED, call -> call.namenode().setReplication(call.path(), (short) 1)),
        onPaths("setStoragePolicy", SHARED, call -> call.namenode().setStoragePolicy(call.path(), "HOT")),
        onPaths("unsetStoragePolicy", SHARED, call -> call.namenode().unsetStoragePolicy(call.path())),
        onPaths("setXAttr", SHARED, call -> call.namenode().setXAttr(call.path(),
            OracleTree.xattr(OracleTree.XATTR), EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE))),
        onPaths("setXAttr(trusted)", SHARED, call -> call.namenode().setXAttr(call.path(),
            OracleTree.xattr("trusted.oracle"), EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE))),
        onPaths("setPermission", SHARED, call -> call.namenode().setPermission(call.path(),
            new FsPermission((short) (call.entry().exists() ? call.entry().mode() : 0755)))),
        onPaths("setOwner(group)", SHARED, call -> call.namenode().setOwner(call.path(), null,
            call.entry().exists() ? call.entry().group() : OracleTree.GROUP)),
        onPaths("setOwner(owner)", SHARED, call -> call.namenode().setOwner(call.path(), call.owner(), null)),
        onPaths("append", SHARED, OraclePathCalls::appendNothing),
        onPaths("truncate", SHARED, call -> call.namenode().truncate(call.path(), 0, call.clientName())),
        onPaths("setQuota", SHARED, call -> call.namenode().setQuota(call.path(), OracleTree.QUOTA,
            HdfsConstants.QUOTA_DONT_SET, null)),
        onPaths("setQuota(storage type)", SHARED, call -> call.namenode().setQuota(call.path(),
            HdfsConstants.QUOTA_DONT_SET, 1L << 40, StorageType.SSD)).notServed("no quotas by storage type"),
        onPaths("modifyAclEntries", SHARED, call -> call.namenode().modifyAclEntries(call.path(),
            AclEntry.parseAclSpec("user:" + NOBODY + ":---", true))),
        onPaths("removeAclEntries", SHARED, call -> call.namenode().removeAclEntries(call.path(),
            AclEntry.parseAclSpec("user:" + NOBODY, false))),
        onPaths("removeDefaultAcl", SHARED, call -> call.namenode().removeDefaultAcl(call.path())),
        onPaths("removeXAttr", SHARED, call -> call.namenode().removeXAttr(call.path(),
            OracleTree.xattr(OracleTree.XATTR))),
        onPaths("setErasureCodingPolicy", SHARED, call -> call.namenode().setErasureCodingPolicy(call.path(),
            "RS-6-3-1024k")).notServed("files are replicated: no erasure coding"),
        onPaths("unsetErasureCodingPolicy", SHARED, call -> call.namenode().unsetErasureCodingPolicy(call.path()))
            .notServed("files are replicated: no erasure coding"),
        onPaths("satisfyStoragePolicy", SHARED, call -> call.namenode().satisfyStoragePolicy(call.path()))
            .notServed("no storage policy satisfier"),
        onPaths("removeAcl", SHARED, call -> call.namenode().removeAcl(call.path())),
        onPaths("setAcl", SHARED, call -> call.namenode().setAcl(call.path(), minimalAcl(call))),
        onPaths("allowSnapshot", SHARED, call -> call.namenode().allowSnapshot(call.path()))
            .notServed("no snapshots"),
        onPaths("createSnapshot", SHARED, call -> call.namenode().createSnapshot(call.path(), "s"))
            .notServed("no snapshots"),
        onPaths("getSnapshotDiffReport", SHARED, call -> call.namenode().getSnapshotDiffReport(call.path(), "s",
            "")).notServed("no snapshots"),
        onPaths("renameSnapshot", SHARED, call -> call.namenode().renameSnapshot(call.path(), "s", "t"))
            .notServed("no snapshots"),
        onPaths("deleteSnapshot", SHARED, call -> call.namenode().deleteSnapshot(call.path(), "t"))
            .notServed("no snapshots"),
        onPaths("disallowSnapshot", SHARED, call -> call.namenode().disallowSnapshot(call.path()))
            .notServed("no snapshots"));
  }

  /** Calls that add, move or remove inodes: each round builds its own tree. */
  static List<OracleCall> ownRounds() {
    return List.of(
        onPaths("create", "create", call -> createAndClose(call, call.path(), false, false)),
        onPaths("create(below, parents)", "create", call -> createAndClose(call, call.path() + "/new/f", false,
            true)),
        onPaths("create(overwrite)", "overwrite", call -> createAndClose(call, call.path(), true, false)),
        onPaths("mkdirs", "mkdirs", call -> call.namenode().mkdirs(call.path(), new FsPermission((short) 0755),
            true)),
        onPaths("mkdirs(below, no parents)", "mkdirs", call -> call.namenode().mkdirs(call.path() + "/new",
            new FsPermission((short) 0755), false)),
        onPaths("createSymlink", "symlink", call -> call.namenode().createSymlink("/elsewhere", call.path(),
            new FsPermission((short) 0755), false)),
        onPaths("delete", "delete", call -> call.namenode().delete(call.path(), false)),
        onPaths("delete(recursive)", "delete-recursive", call -> call.namenode().delete(call.path(), true)),
        onPaths("rename", "rename", call -> call.namenode().rename(call.path(), call.path() + "-moved")),
        onPaths("rename2", "rename2", call -> call.namenode().rename2(call.path(), call.path() + "-moved")),
        onPaths("rename2(overwrite, into sticky)", "rename2-sticky", call -> call.namenode().rename2(call.path(),
            call.root() + "/sticky/" + call.name() + "-in", Options.Rename.OVERWRITE)),
        onPaths("rename(into private)", "rename-private", call -> call.namenode().rename(call.path(),
            call.root() + "/private/" + call.name() + "-in")),
        onPaths("concat", "concat", call -> call.namenode().concat(call.path(),
            new String[] {call.root() + "/" + OracleTree.siblingFile(call.entry().name())})),
        onPaths("recoverLease", "recover-lease", call -> call.namenode().recoverLease(call.path(),
            call.clientName())));
  }

  /**
   * The writer's calls naming the file by path only (file id 0, as old clients do; HDFS then resolves the path with
   * its traverse check, by id it checks the lease only), on a tree of their own: the superuser's client holds the
   * open files, so the others are refused by the lease. The block is one no namenode knows: only who may ask matters
   * here; getAdditionalDatanode is asked as a client holding nothing (the holder's own call on an unknown block fails
   * inside HDFS with a NullPointerException). updateBlockForPipeline and updatePipeline name no path (a block and a
   * client, checked against the lease), so they are not made.
   */
  static List<OracleCall> writers() {
    ExtendedBlock unknown = new ExtendedBlock("BP-oracle", 1L << 40, 0, 1);
    long byPath = HdfsConstants.GRANDFATHER_INODE_ID;
    return List.of(
        onPaths("fsync", "writer", call -> call.namenode().fsync(call.path(), byPath, call.clientName(), 0)),
        onPaths("getAdditionalDatanode", "writer", call -> call.namenode().getAdditionalDatanode(call.path(), byPath,
            unknown, new DatanodeInfo[0], new String[0], new DatanodeInfo[0], 1, call.clientName() + "-holds-nothing")),
        onPaths("addBlock", "writer", call -> call.namenode().addBlock(call.path(), call.clientName(), null, null,
            byPath, null, null)),
        onPaths("abandonBlock", "writer", call -> call.namenode().abandonBlock(unknown, byPath, call.path(),
            call.clientName())),
        onPaths("complete", "writer", call -> call.namenode().complete(call.path(), call.clientName(), null,
            byPath)));
  }

  /** Appends nothing: opens the file for append and closes it at once, as {@code appendToFile} of nothing does. */
  private static void appendNothing(OracleCall.Invocation call) throws Exception {
    ClientProtocol namenode = call.namenode();
    LastBlockWithStatus opened = namenode.append(call.path(), call.clientName(),
        new EnumSetWritable<>(EnumSet.of(CreateFlag.APPEND)));
    namenode.complete(call.path(), call.clientName(),
        opened.getLastBlock() == null ? null : opened.getLastBlock().getBlock(), opened.getFileStatus().getFileId());
  }

  private static void createAndClose(OracleCall.Invocation call, String path, boolean overwrite,
      boolean createParent) throws Exception {
    OracleTree.create(call.namenode(), call.clientName(), path, 0644, overwrite
        ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE) : EnumSet.of(CreateFlag.CREATE), createParent, true);
  }

  /** The ACL the entry's mode amounts to: setting it changes nothing but removes any other entry. */
  private static List<AclEntry> minimalAcl(OracleCall.Invocation call) {
    FsPermission mode = new FsPermission((short) (call.entry().exists() ? call.entry().mode() : 0755));
    return AclEntry.parseAclSpec("user::" + mode.getUserAction().SYMBOL + ",group::"
        + mode.getGroupAction().SYMBOL + ",other::" + mode.getOtherAction().SYMBOL, true);
  }
}

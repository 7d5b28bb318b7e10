package io.canopy.namenode.fs;

import io.canopy.metadata.entity.Inode;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/** Turns inode rows into the statuses HDFS clients expect. */
public final class FileStatusFactory {
  private FileStatusFactory() {
  }

  /**
   * Status with an empty name, as getFileInfo returns it, reporting {@code storagePolicy}: HDFS reports the
   * effective policy (the inode's own, else the nearest ancestor's; see ResolvedPath.effectiveStoragePolicy), and
   * none for a link.
   */
  public static HdfsFileStatus status(Inode inode, byte storagePolicy) {
    return status(inode, HdfsFileStatus.EMPTY_NAME, null, storagePolicy);
  }

  /**
   * Status with an empty name and, when given, a file's block locations: getLocatedFileInfo, and a listing of a file
   * (HDFS lists a file as itself, unnamed).
   */
  public static HdfsFileStatus located(Inode inode, LocatedBlocks locations, byte storagePolicy) {
    return status(inode, HdfsFileStatus.EMPTY_NAME, locations, storagePolicy);
  }

  /**
   * Status named by the inode's local name, as listings return it; with block locations when given. HDFS reports a
   * child's own storage policy, else the listed directory's effective one ({@code directoryPolicy}); a link gets
   * the directory's.
   */
  public static HdfsFileStatus listed(Inode inode, LocatedBlocks locations, byte directoryPolicy) {
    byte policy = inode.isSymlink() || inode.storagePolicy() == 0 ? directoryPolicy : inode.storagePolicy();
    return status(inode, inode.name().getBytes(StandardCharsets.UTF_8), locations, policy);
  }

  private static HdfsFileStatus status(Inode inode, byte[] name, LocatedBlocks locations, byte storagePolicy) {
    boolean directory = inode.directory();
    HdfsFileStatus.Builder builder = new HdfsFileStatus.Builder()
        .isdir(directory)
        .length(directory ? 0 : inode.size())
        .replication(directory ? 0 : inode.replication())
        .blocksize(directory ? 0 : inode.preferredBlockSize())
        .mtime(inode.modificationTime())
        .atime(inode.accessTime()) // a directory's is 0 until setTimes sets it, as in HDFS
        .perm(ModeBits.permission(inode.permission()))
        // HDFS reports an ACL as a flag, which clients also see as the permission's ACL bit ("+" in ls)
        .flags(ModeBits.hasAcl(inode.permission()) ? EnumSet.of(HdfsFileStatus.Flags.HAS_ACL)
            : EnumSet.noneOf(HdfsFileStatus.Flags.class))
        .owner(inode.owner())
        .group(inode.group())
        .symlink(inode.symlinkTarget() == null ? null : inode.symlinkTarget().getBytes(StandardCharsets.UTF_8))
        .path(name)
        .fileId(inode.id())
        .children(directory ? (int) Math.min(Integer.MAX_VALUE, inode.childrenCount()) : 0)
        .storagePolicy(storagePolicy);
    if (locations != null) {
      builder.locations(locations);
    }
    return builder.build();
  }
}

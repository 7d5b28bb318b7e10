package io.canopy.namenode.fs;

import io.canopy.metadata.entity.Inode;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/** Turns inode rows into the statuses HDFS clients expect. */
public final class FileStatusFactory {
  private FileStatusFactory() {
  }

  /** Status with an empty name, as getFileInfo returns it. */
  public static HdfsFileStatus status(Inode inode) {
    return status(inode, HdfsFileStatus.EMPTY_NAME, null);
  }

  /** Status without a name (as getFileInfo), with block locations when given: a listing of a file. */
  public static HdfsFileStatus status(Inode inode, LocatedBlocks locations) {
    return status(inode, HdfsFileStatus.EMPTY_NAME, locations);
  }

  /** Status named by the inode's local name, as listings return it; with block locations when given. */
  public static HdfsFileStatus listed(Inode inode, LocatedBlocks locations) {
    return status(inode, inode.name().getBytes(StandardCharsets.UTF_8), locations);
  }

  private static HdfsFileStatus status(Inode inode, byte[] name, LocatedBlocks locations) {
    boolean directory = inode.directory();
    HdfsFileStatus.Builder builder = new HdfsFileStatus.Builder()
        .isdir(directory)
        .length(directory ? 0 : inode.size())
        .replication(directory ? 0 : inode.replication())
        .blocksize(directory ? 0 : inode.preferredBlockSize())
        .mtime(inode.modificationTime())
        .atime(directory ? 0 : inode.accessTime())
        .perm(new FsPermission(inode.permission()))
        .flags(EnumSet.noneOf(HdfsFileStatus.Flags.class))
        .owner(inode.owner())
        .group(inode.group())
        .symlink(inode.symlinkTarget() == null ? null : inode.symlinkTarget().getBytes(StandardCharsets.UTF_8))
        .path(name)
        .fileId(inode.id())
        .children(directory ? (int) Math.min(Integer.MAX_VALUE, inode.childrenCount()) : 0)
        .storagePolicy(inode.storagePolicy());
    if (locations != null) {
      builder.locations(locations);
    }
    return builder.build();
  }
}

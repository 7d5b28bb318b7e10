package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;

/**
 * Finds the file a writer works on. Writers name it by inode id (HDFS's fileId) as well as by path; the id wins,
 * so renaming an open file does not break its writer, and it costs one unique-key read instead of a path. A writer
 * that names it by path only (an old client, fileId 0) has the path resolved as any other call's, traverse check
 * included (HDFS's resolvePath for write): else anyone could learn from the lease errors which files exist below a
 * directory they may not traverse. By id, HDFS checks nothing but the lease, and neither does Canopy.
 */
final class OpenFile {
  private OpenFile() {
  }

  static LockRequest lock(FsPath path, long fileId, LockMode mode) {
    return lock(path, fileId, mode, false);
  }

  /** With {@code fileData}, the file's blocks and replicas are read in the same round trip as its lock. */
  static LockRequest lock(FsPath path, long fileId, LockMode mode, boolean fileData) {
    if (fileId > 0) {
      LockRequest request = LockRequest.inode(fileId, mode);
      return fileData ? request.withFileData() : request;
    }
    PathLock lock = mode == LockMode.EXCLUSIVE ? PathLock.write(path) : PathLock.read(path);
    return LockRequest.of(fileData ? lock.withFileData() : lock);
  }

  static Inode find(TransactionContext context, FsPath path, long fileId, String holder,
      PermissionChecker permissions) throws IOException {
    Inode file = fileId > 0 ? context.inodeLockedById() : context.path(path).target();
    if (fileId <= 0) {
      ResolvedPath resolved = context.path(path);
      PathChecks.checkTraverse(context, resolved, permissions);
      permissions.checkTraverse(context, resolved);
    }
    if (file == null) {
      throw new FileNotFoundException("File does not exist: " + path + " (inode " + fileId + ") Holder " + holder
          + " does not have any open files.");
    }
    return file;
  }

  /** Sum of the lengths of a file's blocks. */
  static long length(List<Block> blocks) {
    long length = 0;
    for (Block block : blocks) {
      length += block.numBytes();
    }
    return length;
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.tx.ResolvedPath;
import java.io.FileNotFoundException;
import org.apache.hadoop.fs.ParentNotDirectoryException;

/** HDFS's checks on a resolved path, with its exception classes and messages. */
final class PathChecks {
  private PathChecks() {
  }

  /** A component before the last that is a file: HDFS refuses to traverse it. */
  static void checkTraverse(ResolvedPath path) throws ParentNotDirectoryException {
    int depth = path.path().depth();
    int existing = path.existingCount();
    if (existing <= depth && existing >= 1) {
      Inode deepest = path.deepestExisting();
      if (!deepest.directory()) {
        throw new ParentNotDirectoryException(path.deepestExistingPath() + " (is not a directory)");
      }
    }
  }

  /** The target, or HDFS's FileNotFoundException. */
  static Inode requireTarget(ResolvedPath path) throws FileNotFoundException, ParentNotDirectoryException {
    checkTraverse(path);
    Inode target = path.target();
    if (target == null) {
      throw new FileNotFoundException("File does not exist: " + path.path());
    }
    return target;
  }

  static Inode requireFile(ResolvedPath path) throws FileNotFoundException, ParentNotDirectoryException {
    Inode target = requireTarget(path);
    if (target.directory()) {
      throw new FileNotFoundException("Path is not a file: " + path.path());
    }
    return target;
  }
}

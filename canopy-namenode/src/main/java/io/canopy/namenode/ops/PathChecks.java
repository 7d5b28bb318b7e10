package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.tx.ResolvedPath;
import java.io.FileNotFoundException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.security.AccessControlException;

/** HDFS's checks on a resolved path, with its exception classes and messages. */
final class PathChecks {
  private PathChecks() {
  }

  /**
   * A component before the last that is a file: HDFS refuses to traverse it. Only the operations that create the
   * path (create, mkdirs, the destination of a rename) get HDFS's ParentNotDirectoryException; every other one gets
   * it as an AccessControlException with the same message (HDFS's FSDirectory.resolvePath).
   */
  static void checkTraverse(ResolvedPath path) throws AccessControlException {
    String refusal = traversalRefusal(path);
    if (refusal != null) {
      throw new AccessControlException(refusal);
    }
  }

  /** {@link #checkTraverse} for an operation creating the path: ParentNotDirectoryException. */
  static void checkTraverseForCreate(ResolvedPath path) throws ParentNotDirectoryException {
    String refusal = traversalRefusal(path);
    if (refusal != null) {
      throw new ParentNotDirectoryException(refusal);
    }
  }

  /** True when a component before the last is a file (the path can then not exist). */
  static boolean traversesFile(ResolvedPath path) {
    return traversalRefusal(path) != null;
  }

  /** HDFS's message for a file among the ancestors, or null when every existing ancestor is a directory. */
  private static String traversalRefusal(ResolvedPath path) {
    int depth = path.path().depth();
    int existing = path.existingCount();
    if (existing <= depth && existing >= 1) {
      Inode deepest = path.deepestExisting();
      if (!deepest.directory()) {
        return path.deepestExistingPath() + " (is not a directory)";
      }
    }
    return null;
  }

  /** The target, or HDFS's FileNotFoundException. */
  static Inode requireTarget(ResolvedPath path) throws FileNotFoundException, AccessControlException {
    checkTraverse(path);
    Inode target = path.target();
    if (target == null) {
      throw new FileNotFoundException("File does not exist: " + path.path());
    }
    return target;
  }

  static Inode requireFile(ResolvedPath path) throws FileNotFoundException, AccessControlException {
    Inode target = requireTarget(path);
    if (target.directory()) {
      throw new FileNotFoundException("Path is not a file: " + path.path());
    }
    return target;
  }
}

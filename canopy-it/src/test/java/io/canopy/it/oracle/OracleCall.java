package io.canopy.it.oracle;

import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * One call the permission oracle makes on both file systems: a {@code ClientProtocol} call (or a client operation
 * built on them, such as getFileChecksum) with fixed arguments, on each path of {@link OracleTree} or once per user.
 *
 * @param round calls of one round share one tree, built afresh for the round; the reads and the calls that leave the
 *     permissions as they were share {@link #SHARED}, calls that add, move or remove inodes get their own
 * @param notServed why Canopy does not serve the call (then its "not supported" answer is accepted for every user,
 *     the refusal telling nothing about the namespace), or null
 */
record OracleCall(String name, String round, boolean onPaths, String notServed, Action action) {
  static final String SHARED = "shared";

  /** What a call needs: the user's client, its raw namenode proxy and the case's path. */
  record Invocation(DistributedFileSystem fs, ClientProtocol namenode, String clientName, String user,
      String superuser, String root, OracleTree.Entry entry) {
    /** The case's absolute path; the round's root for a call made once per user. */
    String path() {
      return entry == null ? root : root + "/" + entry.name();
    }

    /** The last component of the path. */
    String name() {
      return entry.name().substring(entry.name().lastIndexOf('/') + 1);
    }

    /** The entry's owner as the tree has it (the superuser's name for its own), the caller for a missing one. */
    String owner() {
      if (!entry.exists()) {
        return user;
      }
      return entry.owner() == null ? superuser : entry.owner();
    }
  }

  interface Action {
    void run(Invocation call) throws Exception;
  }

  static OracleCall onPaths(String name, String round, Action action) {
    return new OracleCall(name, round, true, null, action);
  }

  static OracleCall once(String name, Action action) {
    return new OracleCall(name, SHARED, false, null, action);
  }

  /** The same call, which Canopy does not serve, for {@code reason}. */
  OracleCall notServed(String reason) {
    return new OracleCall(name, round, onPaths, reason, action);
  }
}

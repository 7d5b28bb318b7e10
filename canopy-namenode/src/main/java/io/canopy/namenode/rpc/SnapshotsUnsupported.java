package io.canopy.namenode.rpc;

import io.canopy.namenode.fs.NotSupported;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * Canopy has no snapshots. Every snapshot call answers HDFS's own snapshot exception (an IOException the client
 * unwraps), naming the call and the directory in one line, e.g.
 * {@code Snapshots are not supported by Canopy: createSnapshot /dir}.
 */
final class SnapshotsUnsupported {
  private SnapshotsUnsupported() {
  }

  static SnapshotException refuse(String call, String snapshotRoot) {
    return NotSupported.oneLine(new SnapshotException("Snapshots are not supported by Canopy: " + call
        + (snapshotRoot == null ? "" : " " + snapshotRoot)));
  }
}

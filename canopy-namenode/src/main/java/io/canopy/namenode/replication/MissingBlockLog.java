package io.canopy.namenode.replication;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names each missing block (no live replica) in the log once per leader term, up to a bound; beyond it only counts.
 * A missing block stays recorded and queued: it is repaired when a datanode holding it comes back.
 */
final class MissingBlockLog {
  private static final Logger LOG = LoggerFactory.getLogger(MissingBlockLog.class);

  private final int limit;
  private final Set<Long> named = new HashSet<>();
  private long unnamed;

  MissingBlockLog(int limit) {
    this.limit = limit;
  }

  synchronized void clear() {
    named.clear();
    unnamed = 0;
  }

  /** Logs {@code blockId} of file {@code inodeId} as missing, unless it was already. */
  synchronized void missing(long inodeId, long blockId, List<String> recordedOn) {
    if (named.contains(blockId)) {
      return;
    }
    if (named.size() >= limit) {
      if (++unnamed % limit == 1 || limit == 0) {
        LOG.warn("{} more missing blocks not named (the log names at most {} per leader term)", unnamed, limit);
      }
      return;
    }
    named.add(blockId);
    LOG.warn("Block {} of file inode {} is MISSING: no live replica ({}); it stays recorded and is copied as soon "
        + "as a datanode holding it comes back", blockId, inodeId,
        recordedOn.isEmpty() ? "no replica recorded" : "replicas last recorded on dead datanodes " + recordedOn);
  }

  /** The block has a live replica again. */
  synchronized void found(long blockId) {
    named.remove(blockId);
  }
}

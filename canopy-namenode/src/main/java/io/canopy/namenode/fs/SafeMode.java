package io.canopy.namenode.fs;

import org.apache.hadoop.hdfs.server.namenode.SafeModeException;

/**
 * Manual safe mode (HDFS's {@code setSafeMode}, {@code hdfs dfsadmin -safemode enter|leave}): while it is on, client
 * calls that change the namespace or its blocks are refused with HDFS's SafeModeException; reads go on.
 *
 * <p>Canopy has no startup safe mode (namenodes are stateless; the block map is in the database), so this is the
 * only kind. It is cluster-wide: the state is the variable {@value #VARIABLE} in the metadata store. Each namenode
 * keeps a copy, changed at once by its own setSafeMode and re-read every {@code canopy.namenode.safemode.refresh-ms}
 * otherwise, so a namenode learns of a change made through another within that interval. Unlike HDFS's in-memory
 * flag, it survives namenode restarts.
 */
public final class SafeMode {
  /** The metadata-store variable: 1 while safe mode is on. */
  public static final String VARIABLE = "safemode.manual";

  /** Read without the monitor by every changing client call; written under it. */
  private volatile boolean on;
  /** Counts changes made by this namenode's own setSafeMode, so a refresh read before one does not undo it. */
  private long localChanges;

  public boolean isOn() {
    return on;
  }

  /** This namenode's setSafeMode committed {@code value}. */
  public synchronized void changed(boolean value) {
    on = value;
    localChanges++;
  }

  /** Marks the start of a refresh; pass the result to {@link #refreshed}. */
  public synchronized long refreshStarted() {
    return localChanges;
  }

  /** The stored state read by a refresh started at {@code mark}; dropped if a local change happened since. */
  public synchronized void refreshed(boolean value, long mark) {
    if (mark == localChanges) {
      on = value;
    }
  }

  /**
   * Throws HDFS's SafeModeException while safe mode is on. {@code refusal} is HDFS's prefix for the call
   * ("Cannot create file/x", "Cannot delete /x", ...).
   */
  public void check(String refusal) throws SafeModeException {
    if (isOn()) {
      throw new SafeModeException(refusal + ". Name node is in safe mode.\nIt was turned on manually. "
          + "Use \"hdfs dfsadmin -safemode leave\" to turn safe mode off.");
    }
  }
}

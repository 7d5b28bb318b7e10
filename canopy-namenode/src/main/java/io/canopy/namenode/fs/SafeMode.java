package io.canopy.namenode.fs;

import io.canopy.namenode.safemode.SafeModeSettings;
import io.canopy.namenode.safemode.SafeModeState;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;

/**
 * This namenode's copy of the cluster-wide safe mode ({@link SafeModeState}, stored in the metadata store): while it
 * is on, client calls that change the namespace or its blocks are refused with HDFS's SafeModeException, reads go on,
 * and the leader neither copies nor deletes replicas.
 *
 * <p>Two kinds, as in HDFS: manual ({@code hdfs dfsadmin -safemode enter|leave}) and startup (a namenode that starts a
 * cluster turns it on; the leader turns it off once datanodes have reported enough blocks, see
 * {@link io.canopy.namenode.safemode.StartupSafeModeMonitor}; blocks from the future hold it until {@code
 * -safemode forceExit}). Each namenode changes its copy at once when its own setSafeMode commits and re-reads the
 * stored state every {@code canopy.namenode.safemode.refresh-ms} otherwise, so a change made through another namenode
 * is seen within that interval. Unlike HDFS's in-memory flag, the state survives namenode restarts.
 */
public final class SafeMode {
  private final SafeModeSettings settings;
  private final LongSupplier clockMs;
  /** Read without the monitor by every changing client call; written under it. */
  private volatile SafeModeState state = SafeModeState.OFF;
  /** Counts changes made by this namenode's own setSafeMode, so a refresh read before one does not undo it. */
  private long localChanges;

  public SafeMode(SafeModeSettings settings, LongSupplier clockMs) {
    this.settings = settings;
    this.clockMs = clockMs;
  }

  public boolean isOn() {
    return state.on();
  }

  public SafeModeState state() {
    return state;
  }

  public SafeModeSettings settings() {
    return settings;
  }

  /** This namenode committed {@code value} (setSafeMode, or entering the startup safe mode). */
  public synchronized void changed(SafeModeState value) {
    state = value;
    localChanges++;
  }

  /** Marks the start of a refresh; pass the result to {@link #refreshed}. */
  public synchronized long refreshStarted() {
    return localChanges;
  }

  /** The stored state read by a refresh started at {@code mark}; dropped if a local change happened since. */
  public synchronized void refreshed(SafeModeState value, long mark) {
    if (mark == localChanges) {
      state = value;
    }
  }

  /** HDFS's safe mode tip for the current state. */
  public String tip() {
    return state.tip(settings, clockMs.getAsLong());
  }

  /**
   * Throws HDFS's SafeModeException while safe mode is on. {@code refusal} is HDFS's prefix for the call
   * ("Cannot create file/x", "Cannot delete /x", ...).
   */
  public void check(String refusal) throws SafeModeException {
    SafeModeState current = state;
    if (current.on()) {
      throw new SafeModeException(refusal + ". Name node is in safe mode.\n"
          + current.tip(settings, clockMs.getAsLong()));
    }
  }
}

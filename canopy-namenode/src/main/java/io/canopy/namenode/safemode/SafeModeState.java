package io.canopy.namenode.safemode;

import java.util.Locale;

/**
 * The cluster-wide safe mode as stored in the database ({@link SafeModeVariables}): manual (an operator's {@code
 * -safemode enter}) and startup (after a cluster start, until datanodes have reported enough blocks; or held by blocks
 * from the future until an operator forces it off), with the leader's latest counts for the message users see.
 *
 * @param reachedAtMs wall-clock time the thresholds were first met (the extension runs from it), 0 before
 */
public record SafeModeState(boolean manual, boolean startup, long reachedAtMs, long safeBlocks, long totalBlocks,
    int liveDatanodes, long futureBlocks, long futureBytes) {
  public static final SafeModeState OFF = new SafeModeState(false, false, 0, 0, 0, 0, 0, 0);

  public boolean on() {
    return manual || startup;
  }

  /** The state with the manual flag set as given. */
  public SafeModeState withManual(boolean value) {
    return new SafeModeState(value, startup, reachedAtMs, safeBlocks, totalBlocks, liveDatanodes, futureBlocks,
        futureBytes);
  }

  /**
   * HDFS's safe mode tip: why safe mode is on and what ends it ({@code FSNamesystem.getSafeModeTip} and
   * BlockManagerSafeMode's), for SafeModeException messages, the namenode log and {@code canopy up}.
   */
  public String tip(SafeModeSettings settings, long nowMs) {
    if (manual) {
      return "It was turned on manually. Use \"hdfs dfsadmin -safemode leave\" to turn safe mode off.";
    }
    StringBuilder tip = new StringBuilder();
    long threshold = settings.blockThreshold(totalBlocks);
    if (safeBlocks < threshold) {
      tip.append(String.format(Locale.ROOT, "The reported blocks %d needs additional %d blocks to reach the threshold "
          + "%.4f of total blocks %d.%n", safeBlocks, threshold - safeBlocks, settings.thresholdPct(), totalBlocks));
    } else {
      tip.append(String.format(Locale.ROOT, "The reported blocks %d has reached the threshold %.4f of total blocks "
          + "%d. ", safeBlocks, settings.thresholdPct(), totalBlocks));
    }
    if (liveDatanodes < settings.minDatanodes()) {
      tip.append(String.format(Locale.ROOT, "The number of live datanodes %d needs an additional %d live datanodes "
          + "to reach the minimum number %d.%n", liveDatanodes, settings.minDatanodes() - liveDatanodes,
          settings.minDatanodes()));
    } else {
      tip.append(String.format(Locale.ROOT, "The number of live datanodes %d has reached the minimum number %d. ",
          liveDatanodes, settings.minDatanodes()));
    }
    if (futureBytes > 0 || futureBlocks > 0) {
      return tip.append("Name node detected blocks with generation stamps in future. This means that Name node "
          + "metadata is inconsistent. This can happen if the metadata database has been restored from an older "
          + "copy. Exiting safe mode will cause loss of ").append(futureBytes).append(" byte(s) in ")
          .append(futureBlocks).append(" block(s). Please restart the namenodes on the right metadata database or "
              + "use \"hdfs dfsadmin -safemode forceExit\" if you are certain that the database is the right one.")
          .toString();
    }
    String turnOff = "Safe mode will be turned off automatically ";
    if (reachedAtMs == 0) {
      return tip.append(turnOff).append("once the thresholds have been reached.").toString();
    }
    long leftMs = Math.max(0, reachedAtMs + settings.extensionMs() - nowMs);
    return tip.append("In safe mode extension. ").append(turnOff).append("in ").append(leftMs / 1000)
        .append(" seconds.").toString();
  }
}

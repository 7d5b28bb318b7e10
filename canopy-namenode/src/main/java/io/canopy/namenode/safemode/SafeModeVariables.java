package io.canopy.namenode.safemode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.VariableTable;
import io.canopy.namenode.tx.ClusterTables;
import java.util.List;
import java.util.OptionalLong;

/**
 * Where the cluster-wide safe mode lives: variables of the metadata store, so every namenode sees one state. The
 * manual flag is set by operators; the startup flag and the counts by the leader ({@link StartupSafeModeMonitor}),
 * by a namenode that starts a cluster ({@link EnterStartupSafeModeOp}) and by blocks from the future
 * ({@link FutureBlocksOp}).
 */
public final class SafeModeVariables {
  /** 1 while an operator's safe mode is on (HDFS's manual safe mode). */
  public static final String MANUAL = "safemode.manual";
  /** 1 while the startup safe mode is on. */
  public static final String STARTUP = "safemode.startup";
  /** When the startup thresholds were first met (wall-clock ms), 0 before. */
  public static final String REACHED_AT_MS = "safemode.startup.reached-at-ms";
  public static final String SAFE_BLOCKS = "safemode.startup.safe-blocks";
  public static final String TOTAL_BLOCKS = "safemode.startup.total-blocks";
  public static final String LIVE_DATANODES = "safemode.startup.live-datanodes";
  /** Blocks from the future recorded ({@code future_blocks}) and their bytes: safe mode holds while not 0. */
  public static final String FUTURE_BLOCKS = "safemode.future.blocks";
  public static final String FUTURE_BYTES = "safemode.future.bytes";
  /**
   * The block id and generation stamp counters as they were when the first block from the future was seen (0: none
   * seen): unknown blocks at or beyond either are from the future, though the counters have moved past them since.
   */
  public static final String FUTURE_BLOCK_ID_BASELINE = "safemode.future.block-id";
  public static final String FUTURE_STAMP_BASELINE = "safemode.future.generation-stamp";

  private SafeModeVariables() {
  }

  /** The whole state, read in one round trip. */
  public static SafeModeState read(ClusterTables transaction) throws StoreException {
    List<OptionalLong> values = transaction.longVariables(List.of(MANUAL, STARTUP, REACHED_AT_MS, SAFE_BLOCKS,
        TOTAL_BLOCKS, LIVE_DATANODES, FUTURE_BLOCKS, FUTURE_BYTES));
    long[] value = values.stream().mapToLong(read -> read.orElse(0)).toArray(); // in the order named
    return new SafeModeState(value[0] != 0, value[1] != 0, value[2], value[3], value[4], (int) value[5], value[6],
        value[7]);
  }

  /**
   * The whole state, with the startup flag locked exclusively first: every change of the safe mode (an operator's,
   * the leader's, a namenode starting the cluster, blocks from the future) takes this lock, so they serialize.
   */
  public static SafeModeState readLocked(ClusterTables transaction) throws StoreException {
    transaction.variables().getLong(STARTUP, LockMode.EXCLUSIVE);
    return read(transaction);
  }

  /** Turns the startup safe mode on, counts not known yet. */
  static void enterStartup(VariableTable variables) {
    variables.putLong(STARTUP, 1);
    variables.putLong(REACHED_AT_MS, 0);
  }

  /** Turns the startup safe mode off and clears its counts (the future blocks stay unless {@code forced}). */
  public static void leaveStartup(ClusterTables transaction, boolean forced) {
    VariableTable variables = transaction.variables();
    variables.putLong(STARTUP, 0);
    variables.putLong(REACHED_AT_MS, 0);
    variables.putLong(SAFE_BLOCKS, 0);
    variables.putLong(TOTAL_BLOCKS, 0);
    variables.putLong(LIVE_DATANODES, 0);
    if (forced) {
      variables.putLong(FUTURE_BLOCKS, 0);
      variables.putLong(FUTURE_BYTES, 0);
      variables.putLong(FUTURE_BLOCK_ID_BASELINE, 0);
      variables.putLong(FUTURE_STAMP_BASELINE, 0);
      transaction.futureBlocks().deleteAll();
    }
  }
}

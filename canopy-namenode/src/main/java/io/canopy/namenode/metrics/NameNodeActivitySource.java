package io.canopy.namenode.metrics;

import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The {@code NameNodeActivity} record (HDFS's name for a namenode's operation counts): for every operation kind (a
 * transaction, named by its call: {@code Create}, {@code GetListing}, ...) its totals ({@code <Op>NumOps}, failures,
 * retries, retry-cache answers, database round trips and statements per operation) and the last interval's rate and
 * latency percentiles; and HDFS's own counter names where an operation
 * is the same ({@code CreateFileOps}, {@code GetListingOps}, {@code FileInfoOps}, ...).
 */
final class NameNodeActivitySource implements MetricsSource {
  /** HDFS's NameNodeActivity counters and the Canopy operation each counts. */
  private static final Map<String, String> HDFS_NAMES = Map.of(
      "CreateFileOps", "create",
      "GetListingOps", "getListing",
      "FileInfoOps", "getFileInfo",
      "GetBlockLocations", "getBlockLocations",
      "AddBlockOps", "addBlock",
      "AppendFileOps", "append",
      "CreateSymlinkOps", "createSymlink",
      "GetAdditionalDatanodeOps", "getAdditionalDatanode");

  private final ClusterStatusMonitor monitor;

  NameNodeActivitySource(ClusterStatusMonitor monitor) {
    this.monitor = monitor;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    ClusterStatus status = monitor.current();
    MetricsRecordBuilder record = collector.addRecord("NameNodeActivity").setContext("dfs")
        .tag(info("NamenodeId", "This namenode's id in the group"), Long.toString(status.namenodeId()));
    long retryCacheAnswers = 0;
    long retries = 0;
    for (Map.Entry<String, ClusterStatus.Operation> entry : status.operations().entrySet()) {
      String name = capitalized(entry.getKey());
      ClusterStatus.Operation operation = entry.getValue();
      record.addCounter(info(name + "NumOps", "Committed " + name + " operations"), operation.total())
          .addCounter(info(name + "Failures", name + " operations that failed"), operation.failures())
          .addCounter(info(name + "Retries", name + " attempts re-run after a transient failure"), operation.retries())
          .addGauge(info(name + "PerSecond", name + " operations per second over the last interval"),
              operation.perSecond())
          .addGauge(info(name + "Latency50thPercentileMs", name + " latency, median of the last interval"),
              operation.p50Ms())
          .addGauge(info(name + "Latency90thPercentileMs", name + " latency, 90th percentile of the last interval"),
              operation.p90Ms())
          .addGauge(info(name + "Latency99thPercentileMs", name + " latency, 99th percentile of the last interval"),
              operation.p99Ms())
          .addGauge(info(name + "RoundTripsPerOp", "Database round trips per " + name),
              operation.roundTripsPerOperation())
          .addGauge(info(name + "StatementsPerOp", "Database statements per " + name),
              operation.statementsPerOperation());
      retryCacheAnswers += operation.retryCacheAnswers();
      retries += operation.retries();
    }
    record.addCounter(info("RetryCacheAnswers", "Calls answered from the retry cache"), retryCacheAnswers)
        .addCounter(info("TransactionRetries", "Transaction attempts re-run after a transient failure"), retries)
        .addGauge(info("OperationsPerSecond", "Operations per second over the last interval"),
            status.operationsPerSecond());
    HDFS_NAMES.forEach((hdfsName, operation) -> {
      ClusterStatus.Operation counted = status.operations().get(operation);
      record.addCounter(info(hdfsName, "HDFS's counter: committed " + operation + " operations"),
          counted == null ? 0 : counted.total());
    });
  }

  /** An operation's name as the start of a metric's: {@code getListing} becomes {@code GetListing}. */
  static String capitalized(String operation) {
    return operation.isEmpty() ? operation : Character.toUpperCase(operation.charAt(0)) + operation.substring(1);
  }

  private static MetricsInfo info(String name, String description) {
    return Interns.info(name, description);
  }
}

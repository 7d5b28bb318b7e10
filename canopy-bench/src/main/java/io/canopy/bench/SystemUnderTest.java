package io.canopy.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** A running file system the harness measures: Canopy or the Apache HDFS baseline. */
public interface SystemUnderTest extends AutoCloseable {
  /** "Canopy" or "HDFS". */
  String name();

  /** The client address, {@code hdfs://127.0.0.1:PORT}. */
  String uri();

  /** Pids of every server process (to pin them to the server CPUs). */
  List<Long> serverPids() throws IOException;

  /**
   * The roots of the server process trees whose CPU time the report counts, by kind (e.g. namenode, PostgreSQL,
   * datanodes), in the order the report shows them; see {@link ServerCpu}.
   */
  Map<String, List<Long>> serverCpuRoots() throws IOException;

  /** How the system makes metadata changes durable, for the report. */
  String durability();

  @Override
  void close() throws IOException;
}

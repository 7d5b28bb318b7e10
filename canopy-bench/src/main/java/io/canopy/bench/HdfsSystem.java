package io.canopy.bench;

import io.canopy.bench.hdfs.HdfsBaseline;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Apache HDFS 3.5.0 (MiniDFSCluster from Maven artifacts) in its own process, the baseline Canopy is measured by. */
public final class HdfsSystem implements SystemUnderTest {
  /** The one process whose CPU time is HDFS's: MiniDFSCluster runs the namenode and the datanodes in one JVM. */
  public static final String JVM = "namenode + datanodes (one JVM)";
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private final HdfsBaseline baseline;

  private HdfsSystem(HdfsBaseline baseline) {
    this.baseline = baseline;
  }

  public static HdfsSystem start(Path directory, int datanodes, Map<String, String> settings) throws IOException {
    return new HdfsSystem(HdfsBaseline.start(directory, datanodes, settings, START_TIMEOUT));
  }

  @Override
  public String name() {
    return "HDFS";
  }

  @Override
  public String uri() {
    return baseline.uri();
  }

  @Override
  public List<Long> serverPids() {
    return List.of(baseline.pid());
  }

  @Override
  public Map<String, List<Long>> serverCpuRoots() {
    return Map.of(JVM, List.of(baseline.pid()));
  }

  @Override
  public String durability() {
    return "edit log synced to disk before each mutation is acknowledged (HDFS default; MiniDFSCluster's "
        + "skip-fsync test shortcut turned off)";
  }

  @Override
  public void close() throws IOException {
    baseline.close();
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.JsonSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Python users on Canopy's WebHDFS: fsspec's {@code webhdfs} file system and pandas writing and reading CSV and
 * Parquet (pyarrow) through it ({@code src/test/python/webhdfs_pandas_check.py}, in the environment
 * {@link PythonEnvironment} prepares); then the files are checked through HDFS RPC.
 */
@Timeout(1200)
class PythonWebHdfsTest {
  private static final long SCRIPT_TIMEOUT_SECONDS = 300;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(1).dataNodes(3).build();

  @Test
  void pandasAndFsspecWriteAndReadThroughWebHdfs() throws Exception {
    Path base = new Path("/python/alice");
    CLUSTER.fileSystem().mkdirs(base);
    CLUSTER.fileSystem().setOwner(base, "alice", "staff");
    java.nio.file.Path python = PythonEnvironment.python();
    int port = CLUSTER.cluster().nameNode(0).httpAddress().getPort();
    BoundedProcess run = BoundedProcess.run(List.of(python.toString(),
        PythonEnvironment.SOURCES.resolve("webhdfs_pandas_check.py").toString(), "127.0.0.1",
        Integer.toString(port), "alice", base.toString()), SCRIPT_TIMEOUT_SECONDS, null);
    String output = run.output();
    assertTrue(!run.timedOut(), "the Python script did not end within " + SCRIPT_TIMEOUT_SECONDS + " s:\n" + output);
    assertEquals(0, run.exitCode(), output);
    String last = output.strip().lines().reduce((first, second) -> second).orElse("");
    Map<String, Object> result = JsonSerialization.mapReader().readValue(last);
    assertEquals(Boolean.TRUE, result.get("ok"), output);
    assertEquals(List.of("table.csv", "table.parquet"), result.get("listing"), output);

    FileStatus csv = CLUSTER.fileSystem().getFileStatus(new Path(base, "table.csv"));
    assertEquals("alice", csv.getOwner(), "written as the user.name pandas passed");
    assertEquals(((Number) result.get("csv_bytes")).longValue(), csv.getLen());
    List<String> lines = new String(TestFiles.read(CLUSTER.fileSystem(), new Path(base, "table.csv")),
        StandardCharsets.UTF_8).lines().toList();
    assertEquals("id,name,value", lines.get(0));
    assertEquals(5001, lines.size());
    assertEquals("4999,row-4999,1249.75", lines.get(5000));
    byte[] parquet = TestFiles.read(CLUSTER.fileSystem(), new Path(base, "table.parquet"));
    assertEquals("PAR1", new String(parquet, 0, 4, StandardCharsets.US_ASCII));
    assertEquals("PAR1", new String(parquet, parquet.length - 4, 4, StandardCharsets.US_ASCII));
    assertTrue(!CLUSTER.fileSystem().exists(new Path(base, "renamed.bin")), "the script removed its raw file");
  }
}

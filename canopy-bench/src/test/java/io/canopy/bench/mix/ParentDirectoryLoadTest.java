package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The clients in the parent, on the local file system: windows count completed calls and leave no file behind. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ParentDirectoryLoadTest {
  @TempDir
  java.nio.file.Path directory;

  @Test
  void aWindowCountsTheCallsCompletedInsideItAndTheClientsCleanUp() throws Exception {
    Path parent = new Path(directory.toUri());
    CallWindows.WindowResult first;
    CallWindows.WindowResult second;
    try (ParentDirectoryLoad load = ParentDirectoryLoad.start(directory.toUri(), new Configuration(), parent, 2,
        7)) {
      CallWindows.Window window = load.startWindow();
      Thread.sleep(300);
      first = window.end();
      second = load.startWindow().end();
      assertThrows(IllegalStateException.class, window::end, "a window ends once");
    }
    assertEquals(0, first.failures(), first.firstFailures().toString());
    assertTrue(first.operations() > 0 && first.seconds() >= 0.3, first.toString());
    assertEquals(first.operations() / first.seconds(), first.operationsPerSecond(), 1e-6);
    assertTrue(first.latency().count() >= first.operations(), "latencies count overlapping calls too: " + first);
    assertTrue(second.seconds() < first.seconds(), second.toString());
    try (var left = Files.list(directory)) {
      assertTrue(left.noneMatch(file -> !file.getFileName().toString().startsWith(".")),
          "every client deleted its files");
    }
  }

  @Test
  void theBuilderRefusesAFileSystemWithoutTheClientProtocol() {
    FlatDirectoryBuilder builder = new FlatDirectoryBuilder(directory.toUri(), new Configuration(), 1);
    IOException refused = assertThrows(IOException.class, () -> builder.build(new Path(directory.toUri()
        .resolve("d")), 1, new java.io.PrintWriter(java.io.Writer.nullWriter())));
    assertTrue(refused.getMessage().contains("not an HDFS client"), refused.getMessage());
  }
}

package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Spotify mix as a background load, on the local file system: windows measure it, closing stops it. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class MixLoadTest {
  @TempDir
  java.nio.file.Path directory;

  @Test
  void windowsMeasureTheMixAndClosingStopsEveryThread() throws Exception {
    Configuration conf = new Configuration();
    Path base = new Path(directory.toUri().resolve("mix"));
    MixSettings settings = MixSettings.defaults().withBaseDirectory(base.toUri().getPath())
        .withShape(NamespaceShape.defaults().withDepth(1)).withThreads(2).withBuilderThreads(2).withSeed(7)
        .withConnectionPerThread(false);
    MixNamespace namespace;
    try (FileSystem local = FileSystem.newInstance(directory.toUri(), conf)) {
      namespace = new NamespaceBuilder(local, settings.shape(), settings.seed(), 2,
          new PrintWriter(Writer.nullWriter())).buildOrLoad(base);
    }
    CallWindows.WindowResult first;
    CallWindows.WindowResult second;
    try (MixLoad load = MixLoad.start(directory.toUri(), conf, settings, namespace)) {
      CallWindows.Window window = load.startWindow();
      CallWindows.Window beside = load.startWindow();
      Thread.sleep(300);
      List<CallWindows.WindowResult> together = CallWindows.endTogether(List.of(window, beside));
      first = together.get(0);
      second = together.get(1);
      assertThrows(IllegalStateException.class, window::end, "a window ends once");
    }
    assertTrue(first.operations() > 0 && first.seconds() >= 0.3, first.toString());
    assertEquals(first.seconds(), second.seconds(), 0.05, "ended at the same instant: " + first + " / " + second);
    assertTrue(first.latency().count() >= first.operations(), "latencies count overlapping calls too: " + first);
    assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> thread.getName()
        .startsWith("mix-load-") && thread.isAlive()), "closing stopped every mix thread");
  }

  @Test
  void aLoadOfAFixedOperationCountIsRefused() {
    MixSettings counted = MixSettings.defaults().withTotalOperations(10);
    assertThrows(IllegalArgumentException.class, () -> MixLoad.start(directory.toUri(), new Configuration(),
        counted, new MixNamespace(new Path("/x"), List.of(), List.of(), false, 0)));
  }
}

package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.cli.CanopyCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The mix end to end against a real Canopy cluster started by {@code canopy up} (database, namenode and one
 * DataNode as child processes): a tiny namespace, every operation type, no failures.
 */
class MixSmokeTest {
  private static final Pattern DEFAULT_FS = Pattern.compile("(?m)^fs\\.defaultFS=(hdfs://127\\.0\\.0\\.1:\\d+)$");
  private static final long SEED = 4242L;

  @TempDir
  Path clusterDir;

  @Test
  void uniformMixRunsEveryOperationWithoutFailures() throws Exception {
    URI uri = up();
    try {
      Configuration conf = new Configuration();
      conf.setInt("dfs.replication", 1);
      NamespaceShape shape = NamespaceShape.defaults().withDepth(2);
      MixSettings settings = MixSettings.defaults().withBaseDirectory("/bench/mix").withShape(shape)
          .withMix(OperationMix.uniform()).withThreads(4).withBuilderThreads(4).withWarmup(Duration.ofSeconds(1))
          .withDuration(Duration.ofSeconds(5)).withSeed(SEED);
      StringWriter progress = new StringWriter();
      MixResult result = MixRunner.runAgainst(uri, conf, settings, new PrintWriter(progress, true));
      System.out.println(progress);
      System.out.println(result.toText());

      assertTrue(result.namespace().built());
      assertEquals(7, result.namespace().directories());
      assertEquals(7 * 16, result.namespace().files());
      assertEquals(0, result.totalFailures(), result.toText());
      for (MixOperation operation : MixOperation.values()) {
        assertTrue(result.operation(operation).count() > 0, operation.label() + " ran: " + result.toText());
        assertTrue(result.operation(operation).p50Ms() > 0, operation.label());
      }
      assertTrue(result.measuredSeconds() >= 5.0 && result.measuredSeconds() < 15.0, result.toText());
      assertEquals(result.totalCount() / result.measuredSeconds(), result.totalOpsPerSecond(), 1e-6);

      // A second run finds the namespace (now changed by the first) and runs a fixed operation count.
      StringWriter secondProgress = new StringWriter();
      MixResult second = MixRunner.runAgainst(uri, conf, settings.withThreads(2).withWarmup(Duration.ZERO)
          .withMix(OperationMix.spotify()).withTotalOperations(300), new PrintWriter(secondProgress, true));
      System.out.println(secondProgress);
      System.out.println(second.toText());
      assertFalse(second.namespace().built());
      assertEquals(result.directoriesAtEnd(), second.namespace().directories());
      assertEquals(result.filesAtEnd(), second.namespace().files());
      assertEquals(300, second.totalCount() + second.recordedFailures());
      assertEquals(0, second.totalFailures(), second.toText());

      // Another seed must not silently reuse a namespace built for this one.
      IOException wrongSeed = assertThrows(IOException.class, () -> MixRunner.runAgainst(uri, conf,
          settings.withSeed(SEED + 1), new PrintWriter(new StringWriter())));
      assertTrue(wrongSeed.getMessage().contains("another shape or seed"), wrongSeed.getMessage());

      createWriteWritesWholeFilesAndMarksItsRecordedPart(uri, conf);
    } finally {
      run("down", "--dir", clusterDir.toString());
    }
  }

  private static void createWriteWritesWholeFilesAndMarksItsRecordedPart(URI uri, Configuration conf)
      throws IOException {
    java.util.List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    RecordedInterval interval = new RecordedInterval() {
      @Override
      public void started() {
        events.add("started");
      }

      @Override
      public void ended() {
        events.add("ended");
      }
    };
    org.apache.hadoop.fs.Path directory = new org.apache.hadoop.fs.Path("/bench/create-write");
    StringWriter progress = new StringWriter();
    FileRunResult result = new CreateWriteRunner(uri, conf, 2, Duration.ofSeconds(1), Duration.ofSeconds(2), SEED)
        .run(directory, new PrintWriter(progress, true), interval);
    System.out.println(progress);
    assertEquals(java.util.List.of("started", "ended"), events);
    assertEquals(0, result.totalFailures(), result.firstFailures().toString());
    assertTrue(result.files() > 0, "no file recorded");
    assertEquals(result.files() / result.measuredSeconds(), result.filesPerSecond(), 1e-6);
    assertTrue(result.latency().p50Ms() > 0 && result.latency().p99Ms() >= result.latency().p50Ms());
    try (org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.newInstance(uri, conf)) {
      org.apache.hadoop.fs.FileStatus[] files = fs.listStatus(directory);
      assertTrue(files.length >= result.files(), "warm-up and recorded files: " + files.length);
      for (org.apache.hadoop.fs.FileStatus file : files) {
        assertEquals(CreateWriteRunner.FILE_BYTES, file.getLen(), file.getPath().toString());
      }
    }
  }

  private URI up() {
    String out = run("up", "--dir", clusterDir.toString(), "--datanodes", "1", "-D", "dfs.replication=1");
    Matcher matcher = DEFAULT_FS.matcher(out);
    assertTrue(matcher.find(), "no fs.defaultFS line in:\n" + out);
    return URI.create(matcher.group(1));
  }

  private static String run(String... args) {
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    System.out.println("$ canopy " + String.join(" ", args) + "\n" + out + err + "[exit " + exitCode + "]");
    assertEquals(0, exitCode, () -> "canopy " + String.join(" ", args) + " failed:\n" + out + err);
    return out.toString();
  }
}

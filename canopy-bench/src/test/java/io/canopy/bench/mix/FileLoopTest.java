package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The timed loop's accounting and the small-file content check, without a file system. */
class FileLoopTest {
  private static final List<FileSystem> TWO_CLIENTS = Collections.nCopies(2, null); // the operations ignore them

  @Test
  void aFailedCheckIsAFailureNotALatencySample() throws IOException {
    FileLoop loop = new FileLoop("test op", 2, Duration.ZERO, Duration.ofMillis(300), 7);
    FileRunResult result = loop.run(TWO_CLIENTS, (client, thread, sequence) -> {
      sleepQuietly();
      if (thread == 1 && sequence == 2) {
        return () -> {
          throw new IOException("content mismatch: /x byte 0");
        };
      }
      return FileLoop.Check.NONE;
    }, RecordedInterval.NONE);
    assertEquals(1, result.recordedFailures());
    assertEquals(0, result.warmupFailures());
    assertEquals(List.of("test op, thread 1, file 2: java.io.IOException: content mismatch: /x byte 0"),
        result.firstFailures());
    assertTrue(result.files() >= 2, "files done besides the failed one: " + result.files());
    assertEquals(result.files(), result.latency().count(), "the failed file has no latency sample");
    assertEquals(result.files() / result.measuredSeconds(), result.filesPerSecond(), 1e-9);
  }

  @Test
  void anOperationThatThrowsIsCountedInTheWarmupOrTheRecord() throws IOException {
    FileLoop loop = new FileLoop("failing op", 2, Duration.ofMillis(200), Duration.ofMillis(200), 7);
    FileRunResult result = loop.run(TWO_CLIENTS, (client, thread, sequence) -> {
      sleepQuietly();
      throw new IOException("refused");
    }, RecordedInterval.NONE);
    assertEquals(0, result.files());
    assertTrue(result.warmupFailures() > 0 && result.recordedFailures() > 0, result.toString());
    assertEquals(result.warmupFailures() + result.recordedFailures(), result.totalFailures());
    assertTrue(result.firstFailures().get(0).startsWith("(warm-up) failing op, thread "), result.toString());
  }

  @Test
  void theLoopTakesExactlyOneClientPerThread() {
    FileLoop loop = new FileLoop("op", 3, Duration.ZERO, Duration.ofMillis(10), 7);
    assertThrows(IllegalArgumentException.class, () -> loop.run(TWO_CLIENTS, (c, t, s) -> FileLoop.Check.NONE,
        RecordedInterval.NONE));
  }

  @Test
  void everyFileHasItsOwnDeterministicContent() {
    byte[] first = new byte[4096];
    byte[] again = new byte[4096];
    byte[] otherSequence = new byte[4096];
    byte[] otherThread = new byte[4096];
    SmallFilesRunner.fillContent(first, 11, 2, 5);
    SmallFilesRunner.fillContent(again, 11, 2, 5);
    SmallFilesRunner.fillContent(otherSequence, 11, 2, 6);
    SmallFilesRunner.fillContent(otherThread, 11, 3, 5);
    assertArrayEquals(first, again);
    assertFalse(Arrays.equals(first, otherSequence));
    assertFalse(Arrays.equals(first, otherThread));
  }

  @Test
  void theCheckNamesThePathAndTheFirstDifference() throws IOException {
    Path path = new Path("/bench/f-0-1");
    byte[] expected = {1, 2, 3, 4};
    SmallFilesRunner.checkContent(path, new byte[] {1, 2, 3, 4, 0}, 4, expected);
    IOException changed = assertThrows(IOException.class,
        () -> SmallFilesRunner.checkContent(path, new byte[] {1, 2, 9, 4, 0}, 4, expected));
    assertEquals("content mismatch: /bench/f-0-1 byte 2 read 9, written 3", changed.getMessage());
    IOException shorter = assertThrows(IOException.class,
        () -> SmallFilesRunner.checkContent(path, new byte[] {1, 2, 3, 0, 0}, 3, expected));
    assertEquals("content mismatch: /bench/f-0-1 read 3 bytes, 4 were written", shorter.getMessage());
    IOException longer = assertThrows(IOException.class,
        () -> SmallFilesRunner.checkContent(path, new byte[] {1, 2, 3, 4, 5}, 5, expected));
    assertEquals("content mismatch: /bench/f-0-1 read more than 4 bytes, 4 were written", longer.getMessage());
  }

  private static void sleepQuietly() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

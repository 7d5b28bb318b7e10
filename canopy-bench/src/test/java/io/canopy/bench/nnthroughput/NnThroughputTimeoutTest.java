package io.canopy.bench.nnthroughput;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A namenode that never answers must not hang the harness: the run is killed at its timeout and fails loudly. */
class NnThroughputTimeoutTest {
  @TempDir
  Path dir;

  @Test
  @Timeout(60)
  void killsARunThatHangsAndThrows() throws Exception {
    List<Socket> accepted = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(silent.accept()); // and never read or write
          }
        } catch (IOException closed) {
          // the test is over
        }
      }, "silent-namenode");
      acceptor.setDaemon(true);
      acceptor.start();
      long start = System.nanoTime();
      NnThroughputException error = assertThrows(NnThroughputException.class, () -> NnThroughput.run(
          "hdfs://127.0.0.1:" + silent.getLocalPort(), "create", 2, 10, Map.of(), Duration.ofSeconds(5), dir));
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("hung run failed after %.1f s: %s%n", seconds, error.getMessage());
      assertTrue(error.timedOut(), error.getMessage());
      assertTrue(error.getMessage().contains("TIMED OUT"), error.getMessage());
      assertTrue(seconds < 30, "took " + seconds + " s");
      assertFalse(ProcessHandle.of(error.pid()).map(ProcessHandle::isAlive).orElse(false),
          "the benchmark process " + error.pid() + " still runs");
      assertTrue(Files.exists(error.log()));
      // Normally it hangs in its first call (versionRequest); on a loaded machine it may still be starting.
      System.out.println("connections accepted: " + accepted.size());
    } finally {
      for (Socket socket : accepted) {
        socket.close();
      }
    }
  }

  @Test
  void rejectsUnknownOperations() {
    assertThrows(IllegalArgumentException.class,
        () -> NnThroughput.run("hdfs://127.0.0.1:1", "blockReport", 1, 1, Map.of(), Duration.ofSeconds(5), dir));
  }
}

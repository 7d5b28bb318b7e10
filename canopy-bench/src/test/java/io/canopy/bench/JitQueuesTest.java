package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JitQueuesTest {
  @Test
  void countsTheQueuedCompilesNotTheRunningOnes() {
    String answer = String.join("\n", "21460:", "Current compiles: ",
        "C2 CompilerThread0  13049       4       org.apache.hadoop.hdfs.protocolPB.PBHelperClient::convertLocatedBlock "
            + "(271 bytes)",
        "", "C1 compile queue:", "Empty", "", "C2 compile queue:",
        "7814       4       jdk.internal.org.objectweb.asm.ByteVector::putShort (52 bytes)",
        "7821       4       jdk.internal.org.objectweb.asm.ClassReader::readUTF8 (23 bytes)",
        "7870       4       org.apache.hadoop.util.Time::now (4 bytes)",
        "7871   !   4       io.canopy.namenode.tx.TransactionRunner::run (412 bytes)",
        "7872 %     3       io.canopy.namenode.tx.LockPlanner::acquire @ 57 (1024 bytes)",
        "7873  s!   4       java.lang.StringBuffer::append (13 bytes)", "");
    assertEquals(6, JitQueues.count(answer));
    assertEquals(0, JitQueues.count("C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n"));
    assertEquals(0, JitQueues.count("12345: no such process"));
  }

  @Test
  void drainedWhenEveryQueueIsShort() {
    assertTrue(JitQueues.drained(Map.of(1L, 0, 2L, JitQueues.DRAINED)));
    assertFalse(JitQueues.drained(Map.of(1L, 0, 2L, JitQueues.DRAINED + 1)));
    assertTrue(JitQueues.drained(Map.of()), "no JVM to wait for");
    assertTrue(JitQueues.drained(Map.of(1L, JitQueues.UNKNOWN)), "an unanswered queue is shown, not waited for");
    assertTrue(JitQueues.describe(Map.of(1L, JitQueues.UNKNOWN)).contains("no answer"));
  }

  /**
   * This test's own JVM answers jcmd. A process that is no JVM is never asked, and lives on: jcmd's attach sends
   * SIGQUIT, which stops PostgreSQL's postmaster (a benchmark run lost its database that way).
   */
  @Test
  void readsALiveJvmsQueueAndNeverSignalsAnotherProcess() throws Exception {
    long self = ProcessHandle.current().pid();
    // catches SIGQUIT as the postmaster does (jcmd signals only processes that catch it), and exits on it
    Process other = new ProcessBuilder("python3", "-c", "import signal, sys, time\n"
        + "signal.signal(signal.SIGQUIT, lambda *a: sys.exit(3))\n"
        + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGQUIT])\n" // a JVM's child starts with it blocked
        + "print('ready', flush=True)\ntime.sleep(60)")
        .start();
    assertEquals("ready", new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream(),
        java.nio.charset.StandardCharsets.UTF_8)).readLine(), "the stand-in process started");
    try {
      Map<Long, Integer> lengths = JitQueues.lengths(List.of(self, other.pid(), Long.MAX_VALUE / 2));
      assertTrue(lengths.containsKey(self), "jcmd reached this JVM: " + lengths);
      assertTrue(lengths.get(self) >= 0);
      assertEquals(Set.of(self), lengths.keySet());
      Thread.sleep(500);
      assertTrue(other.isAlive(), "the process that is no JVM was signalled");
    } finally {
      other.destroy();
    }
  }
}

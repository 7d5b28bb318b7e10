package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
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
        "7870       4       org.apache.hadoop.util.Time::now (4 bytes)", "");
    assertEquals(3, JitQueues.count(answer));
    assertEquals(0, JitQueues.count("C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n"));
    assertEquals(0, JitQueues.count("12345: no such process"));
  }

  @Test
  void drainedWhenEveryQueueIsShort() {
    assertTrue(JitQueues.drained(Map.of(1L, 0, 2L, JitQueues.DRAINED)));
    assertFalse(JitQueues.drained(Map.of(1L, 0, 2L, JitQueues.DRAINED + 1)));
    assertTrue(JitQueues.drained(Map.of()), "no JVM to wait for");
  }

  /** This test's own JVM answers jcmd; a pid that is no JVM is left out. */
  @Test
  void readsALiveJvmsQueue() throws Exception {
    long self = ProcessHandle.current().pid();
    Map<Long, Integer> lengths = JitQueues.lengths(List.of(self, Long.MAX_VALUE / 2));
    assertTrue(lengths.containsKey(self), "jcmd reached this JVM: " + lengths);
    assertFalse(lengths.containsKey(Long.MAX_VALUE / 2), lengths.toString());
    assertTrue(lengths.get(self) >= 0);
  }
}

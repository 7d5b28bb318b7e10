package io.canopy.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The length of each server JVM's JIT compile queue, read with {@code jcmd PID Compiler.queue}. On the one core the
 * servers share, a JVM's compiler threads get a small share of it: a namenode JVM measured after 6 minutes of load
 * still had 1,400 methods waiting for C2 while most of its handler time ran interpreted, when another namenode of the
 * same cluster had drained its queue. A recorded run is only about steady state once every queue has drained.
 */
final class JitQueues {
  /** A queue this short counts as drained (a few methods go hot at any time). */
  static final int DRAINED = 50;
  /** One queued compile per line: its compile id, then its tier. */
  private static final Pattern QUEUED = Pattern.compile("^\\s*\\d+\\s+\\d\\s", Pattern.MULTILINE);
  private static final long JCMD_TIMEOUT_SECONDS = 30;

  private JitQueues() {
  }

  /**
   * Queue length by pid, for those of {@code pids} that run {@code java} and that jcmd reaches (none when jcmd is
   * missing). Other processes are never asked: jcmd's attach sends its target SIGQUIT.
   */
  static Map<Long, Integer> lengths(List<Long> pids) throws InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Map<Long, Integer> lengths = new LinkedHashMap<>();
    if (!Files.isExecutable(jcmd)) {
      return lengths;
    }
    for (long pid : pids) {
      if (!isJava(pid)) {
        continue; // jcmd signals its target (SIGQUIT) to attach: that stops PostgreSQL's postmaster at once
      }
      try {
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Compiler.queue")
            .redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          continue;
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() == 0 && text.contains("compile queue")) {
          lengths.put(pid, count(text));
        }
      } catch (IOException e) {
        // gone, or not reachable: nothing to wait for
      }
    }
    return lengths;
  }

  /** Whether {@code pid} runs a {@code java} executable (only those are asked: see {@link #lengths}). */
  static boolean isJava(long pid) {
    return ProcessHandle.of(pid).flatMap(process -> process.info().command())
        .map(command -> Path.of(command).getFileName().toString().equals("java")).orElse(false);
  }

  /** Queued compiles in a {@code Compiler.queue} answer (the compiles running now are not counted). */
  static int count(String compilerQueueOutput) {
    String queues = compilerQueueOutput;
    int firstQueue = queues.indexOf("compile queue");
    if (firstQueue < 0) {
      return 0;
    }
    queues = queues.substring(firstQueue);
    int count = 0;
    var matcher = QUEUED.matcher(queues);
    while (matcher.find()) {
      count++;
    }
    return count;
  }

  /** Whether every queue in {@code lengths} is at most {@link #DRAINED}. */
  static boolean drained(Map<Long, Integer> lengths) {
    return lengths.values().stream().allMatch(length -> length <= DRAINED);
  }

  static String describe(Map<Long, Integer> lengths) {
    List<String> parts = new ArrayList<>();
    lengths.forEach((pid, length) -> parts.add("pid " + pid + ": " + length));
    return parts.isEmpty() ? "no JVM reachable with jcmd" : String.join(", ", parts);
  }
}

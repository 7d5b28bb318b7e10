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
  /**
   * One queued compile per line, starting with its compile id (then flag columns such as {@code %} for on-stack
   * replacement or {@code !} for a method with exception handlers, then its tier).
   */
  private static final Pattern QUEUED = Pattern.compile("^\\s*\\d+\\s", Pattern.MULTILINE);
  private static final long JCMD_TIMEOUT_SECONDS = 30;
  /** A java process jcmd did not answer for: its queue is unknown (printed, not waited for). */
  static final int UNKNOWN = -1;

  private JitQueues() {
  }

  /**
   * Queue length by pid, for those of {@code pids} that run {@code java} ({@link #UNKNOWN} when jcmd gave no answer
   * within {@value #JCMD_TIMEOUT_SECONDS} s; none at all when jcmd is missing). Other processes are never asked:
   * jcmd's attach sends its target SIGQUIT.
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
      Path output = null;
      try {
        output = Files.createTempFile("canopy-jcmd-", ".txt");
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Compiler.queue")
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!process.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          lengths.put(pid, UNKNOWN);
          continue;
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        lengths.put(pid, process.exitValue() == 0 && text.contains("compile queue") ? count(text) : UNKNOWN);
      } catch (IOException e) {
        lengths.put(pid, UNKNOWN); // gone, or not reachable
      } finally {
        if (output != null) {
          try {
            Files.deleteIfExists(output);
          } catch (IOException e) {
            // a temporary file left behind
          }
        }
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

  /**
   * Whether every known queue in {@code lengths} is at most {@link #DRAINED} (an unknown one cannot be waited for:
   * {@link #describe} shows it).
   */
  static boolean drained(Map<Long, Integer> lengths) {
    return lengths.values().stream().allMatch(length -> length <= DRAINED);
  }

  static String describe(Map<Long, Integer> lengths) {
    List<String> parts = new ArrayList<>();
    lengths.forEach((pid, length) -> parts.add("pid " + pid + ": " + (length == UNKNOWN ? "no answer" : length)));
    return parts.isEmpty() ? "no JVM reachable with jcmd" : String.join(", ", parts);
  }
}

package io.canopy.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Profiles a running JVM with Java Flight Recorder through {@code jcmd} (start, then stop and dump), and sums up
 * where its threads were: on-CPU samples (jdk.ExecutionSample) and samples of threads inside native code
 * (jdk.NativeMethodSample: mostly waiting on sockets, i.e. on PostgreSQL or on clients).
 */
public final class JfrProfile {
  /** Share of samples per category and the hottest frames, for the report. */
  public record Summary(long cpuSamples, Map<String, Double> cpuByComponent, List<Map.Entry<String, Long>> hotMethods,
      long nativeSamples, Map<String, Double> nativeByComponent) {
  }

  private static final String RECORDING = "canopy-bench";

  private JfrProfile() {
  }

  /** jcmd of the JDK running the harness (the one the namenodes run on), for a matching attach protocol. */
  private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");

  public static boolean available() {
    return Files.isExecutable(JCMD);
  }

  /** The recording a JVM launched with {@link #launchOption} runs from its start, with no event enabled. */
  static final String LAUNCH_RECORDING = "canopy-launch";

  /**
   * The JVM option that starts a process with Flight Recorder already running and recording nothing, so that
   * {@link #start} later leaves its compiled code alone. Started in a running JDK 17 JVM that had no recording, Flight
   * Recorder first deoptimizes every compiled method (all "made not entrant" at once, as -XX:+PrintCompilation
   * shows): a warm namenode on the benchmark's one server core then ran two thirds of its samples in the interpreter
   * for minutes, and the profile described a JVM compiling its code again. Writes the empty settings file it names
   * into {@code directory}.
   */
  public static String launchOption(Path directory) throws IOException {
    Files.createDirectories(directory);
    Path settings = directory.resolve("jfr-nothing.jfc").toAbsolutePath();
    if (settings.toString().matches(".*[\\s,=].*")) {
      throw new IOException("cannot pass " + settings + " in -XX:StartFlightRecording: it has a space, ',' or '='");
    }
    Files.writeString(settings, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\" "
        + "label=\"nothing\" description=\"Flight Recorder running, no event enabled\"></configuration>\n");
    return "-XX:StartFlightRecording=name=" + LAUNCH_RECORDING + ",settings=" + settings + ",disk=false";
  }

  public static void start(long pid) throws IOException {
    jcmd(pid, "JFR.start", "name=" + RECORDING, "settings=profile");
  }

  public static Path stop(long pid, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    jcmd(pid, "JFR.stop", "name=" + RECORDING, "filename=" + file.toAbsolutePath());
    return file;
  }

  private static void jcmd(long pid, String... arguments) throws IOException {
    List<String> command = new ArrayList<>(List.of(JCMD.toString(), Long.toString(pid)));
    command.addAll(List.of(arguments));
    Path output = Files.createTempFile("canopy-jcmd", ".out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    try {
      boolean finished = process.waitFor(60, TimeUnit.SECONDS);
      if (!finished || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IOException("'" + String.join(" ", command) + "' " + (finished ? "failed" : "did not finish in 60 s")
            + ": " + Files.readString(output).strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted running jcmd", e);
    } finally {
      Files.deleteIfExists(output);
    }
  }

  /** Reads a recording and sums it up. */
  public static Summary summarize(Path recording) throws IOException {
    Map<String, Long> cpu = new HashMap<>();
    Map<String, Long> hot = new HashMap<>();
    Map<String, Long> inNative = new HashMap<>();
    long cpuSamples = 0;
    long nativeSamples = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
      String type = event.getEventType().getName();
      RecordedStackTrace stack = event.getStackTrace();
      if (stack == null || stack.getFrames().isEmpty()) {
        continue;
      }
      if (type.equals("jdk.ExecutionSample")) {
        cpuSamples++;
        cpu.merge(component(stack), 1L, Long::sum);
        hot.merge(frameName(stack.getFrames().get(0)), 1L, Long::sum);
      } else if (type.equals("jdk.NativeMethodSample")) {
        nativeSamples++;
        inNative.merge(component(stack), 1L, Long::sum);
      }
    }
    List<Map.Entry<String, Long>> hotMethods = new ArrayList<>(hot.entrySet());
    hotMethods.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    return new Summary(cpuSamples, shares(cpu, cpuSamples), hotMethods.subList(0, Math.min(10, hotMethods.size())),
        nativeSamples, shares(inNative, nativeSamples));
  }

  private static Map<String, Double> shares(Map<String, Long> counts, long total) {
    Map<String, Double> result = new LinkedHashMap<>();
    counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> result.put(e.getKey(), total == 0 ? 0 : 100.0 * e.getValue() / total));
    return result;
  }

  private static String frameName(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }

  /**
   * What a sample was doing, by the innermost frame that says it (order matters: a JDBC call made by a Canopy
   * operation counts as JDBC): PostgreSQL JDBC driver, connection pool, Hadoop IPC / protobuf, Canopy's own code,
   * JVM and other.
   */
  static String component(RecordedStackTrace stack) {
    for (RecordedFrame frame : stack.getFrames()) {
      String type = frame.getMethod().getType().getName();
      if (type.startsWith("org.postgresql.")) {
        return "PostgreSQL JDBC driver (statements, result parsing, socket I/O)";
      }
      if (type.startsWith("com.zaxxer.hikari.")) {
        return "connection pool";
      }
      if (type.startsWith("org.apache.hadoop.ipc.") || type.startsWith("org.apache.hadoop.thirdparty.protobuf.")
          || type.startsWith("org.apache.hadoop.hdfs.protocolPB.") || type.startsWith("org.apache.hadoop.security.")) {
        return "Hadoop RPC (IPC server, protobuf, translators)";
      }
      if (type.startsWith("io.canopy.")) {
        return "Canopy namenode code (operations, locking, caches)";
      }
    }
    return "JVM and other (GC, JIT, logging, JDK)";
  }
}

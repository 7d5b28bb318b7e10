package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrProfileTest {
  private static final String STEP = "JfrProfileTest$Spin::step";

  @Test
  void theLaunchOptionNamesAnEmptySettingsFile(@TempDir Path directory) throws Exception {
    String option = JfrProfile.launchOption(directory);
    assertTrue(option.startsWith("-XX:StartFlightRecording=name=" + JfrProfile.LAUNCH_RECORDING + ",settings="),
        option);
    Path settings = Path.of(option.replaceAll(".*settings=([^,]*).*", "$1"));
    assertTrue(Files.isRegularFile(settings), option);
    assertEquals(Collections.emptyMap(), Configuration.create(settings).getSettings(), "no event enabled");
  }

  /**
   * The premise and the cure: Flight Recorder started in a running JVM makes its compiled code not entrant (the
   * JVM falls back to the interpreter until it compiles again); a JVM launched with {@link JfrProfile#launchOption}
   * keeps it.
   */
  @Test
  void aJvmLaunchedWithTheRecorderKeepsItsCompiledCodeWhenProfiled(@TempDir Path directory) throws Exception {
    assumeTrue(JfrProfile.available(), "jcmd is needed");
    assertTrue(compiledStepDeoptimizedByProfiling(List.of(), directory.resolve("plain.jfr")),
        "a JVM without Flight Recorder deoptimizes its compiled code when a recording starts");
    assertFalse(compiledStepDeoptimizedByProfiling(List.of(JfrProfile.launchOption(directory)),
        directory.resolve("launched.jfr")), "launched with Flight Recorder running, it keeps it");
  }

  /** Runs {@link Spin} until its step is C2-compiled, profiles it briefly, and tells whether the step was deoptimized. */
  private static boolean compiledStepDeoptimizedByProfiling(List<String> options, Path recording) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+PrintCompilation", "-Xmx64m"));
    command.addAll(options);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Spin.class.getName()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = Collections.synchronizedList(new ArrayList<>());
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (java.io.IOException e) {
        // the process ended
      }
    });
    reader.start();
    try {
      String id = awaitC2CompileId(lines, process);
      Thread.sleep(500);
      int before = lines.size();
      JfrProfile.start(process.pid());
      Thread.sleep(1_500);
      JfrProfile.stop(process.pid(), recording);
      // only the C2 code itself counts: its tier-3 predecessor is made not entrant whenever C2 installs it
      synchronized (lines) {
        return lines.subList(before, lines.size()).stream()
            .anyMatch(line -> line.contains(STEP) && line.contains("made not entrant") && id.equals(compileId(line)));
      }
    } finally {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      reader.join(10_000);
    }
  }

  /** Waits (at most a minute) for -XX:+PrintCompilation to list the step's C2 compilation; its compile id. */
  private static String awaitC2CompileId(List<String> lines, Process process) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String id;
    while ((id = c2CompileId(lines)) == null) {
      assertTrue(System.nanoTime() < deadline && process.isAlive(), "the step was not compiled by C2: " + lines);
      Thread.sleep(50);
    }
    return id;
  }

  /** The compile id of the step's C2 compilation, once -XX:+PrintCompilation listed it; null before. */
  private static String c2CompileId(List<String> lines) {
    synchronized (lines) {
      // PrintCompilation: timestamp, compile id, flags, tier, method; tier 4 is C2
      return lines.stream().filter(line -> line.contains(STEP) && !line.contains("made not entrant")
          && line.matches("\\s*\\d+\\s+\\d+\\s+[%sbn! ]*4\\s+.*")).map(JfrProfileTest::compileId).findFirst()
          .orElse(null);
    }
  }

  private static String compileId(String line) {
    String[] fields = line.trim().split("\\s+");
    return fields.length > 1 ? fields[1] : "";
  }

  /** A JVM with one hot method. */
  public static final class Spin {
    private Spin() {
    }

    public static void main(String[] args) throws InterruptedException {
      long sum = 0;
      while (true) {
        for (int i = 0; i < 1_000_000; i++) {
          sum = step(sum, i);
        }
        if (sum == 42) {
          System.out.println(sum);
        }
        Thread.sleep(1);
      }
    }

    static long step(long sum, int i) {
      return sum * 31 + (i ^ (sum >>> 7));
    }
  }
}

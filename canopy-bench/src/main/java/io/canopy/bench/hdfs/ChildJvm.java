package io.canopy.bench.hdfs;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Java child process of the benchmark harness: {@code java} of the running JVM with this JVM's class path, its
 * stdout and stderr appended to one log file, stdin from /dev/null.
 *
 * <p>It never outlives the harness by accident: a shutdown hook of this JVM kills it while it runs, and the child
 * (when its main calls {@link #exitWhenParentDies}) exits by itself when this JVM is gone, even after a SIGKILL.
 * Used by the HDFS baseline and by the NNThroughputBenchmark runner.
 */
public final class ChildJvm {
  /** System property naming the parent's pid; see {@link #exitWhenParentDies}. */
  public static final String PARENT_PID_PROPERTY = "canopy.bench.parent.pid";
  /** JVM options every child gets. Hadoop 3 on Java 17 reflects into these packages. */
  static final List<String> COMMON_JVM_OPTIONS = List.of("-XX:+ExitOnOutOfMemoryError",
      "-Djava.net.preferIPv4Stack=true",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED");
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);
  private static final int TAIL_BYTES = 64 * 1024;

  private final Process process;
  private final Path log;
  private final List<String> command;
  private final Thread killOnExit;

  private ChildJvm(Process process, Path log, List<String> command) {
    this.process = process;
    this.log = log;
    this.command = List.copyOf(command);
    this.killOnExit = new Thread(() -> destroyTree(true), "kill-child-" + process.pid());
    Runtime.getRuntime().addShutdownHook(killOnExit);
    // Forget the hook once the child is gone, so a long-lived harness does not collect them.
    process.onExit().thenRun(this::removeShutdownHook);
  }

  /**
   * The command that runs {@code mainClass}: {@code prefix} (e.g. {@code taskset -c 1}), this JVM's java,
   * {@code heap} (e.g. {@code -Xmx2g}), the common options, the parent-pid marker, {@code jvmOptions} (later ones
   * win, so they can override the heap), this JVM's class path, the main class and {@code arguments}.
   */
  public static List<String> javaCommand(List<String> prefix, String heap, List<String> jvmOptions, String mainClass,
      List<String> arguments) {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add(heap);
    command.addAll(COMMON_JVM_OPTIONS);
    command.add("-D" + PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(arguments);
    return command;
  }

  /** Starts {@code command} in {@code workingDir}, its stdout and stderr appended to {@code log}. */
  public static ChildJvm start(List<String> command, Path log, Path workingDir) throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(workingDir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectErrorStream(true);
    return new ChildJvm(builder.start(), log, command);
  }

  public Process process() {
    return process;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public List<String> command() {
    return command;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits up to {@code timeout} for the child to exit; true if it has. */
  public boolean awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
  }

  /**
   * SIGTERM, then up to {@code grace} for the child to exit, then SIGKILL (to it and anything it started). Returns
   * true if it had to kill. Returns only once the child is gone (or after a bounded wait if even SIGKILL did not
   * work, which is then an {@link IllegalStateException}).
   */
  public boolean stop(Duration grace) {
    if (!process.isAlive()) {
      return false;
    }
    process.destroy();
    if (await(process.toHandle(), grace)) {
      destroyTree(true);
      return false;
    }
    kill();
    return true;
  }

  /** SIGKILL to the child and its descendants; waits until the child is gone. */
  public void kill() {
    destroyTree(true);
    if (!await(process.toHandle(), KILL_WAIT)) {
      throw new IllegalStateException("could not kill child process " + process.pid() + ": " + command.get(0));
    }
  }

  private void destroyTree(boolean forcibly) {
    // Descendants first (e.g. when a command prefix forked instead of exec'ing), then the child itself.
    process.descendants().forEach(forcibly ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
    if (forcibly) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
  }

  private void removeShutdownHook() {
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // This JVM is shutting down: the hook is running or about to, harmlessly.
    }
  }

  private static boolean await(ProcessHandle handle, Duration timeout) {
    try {
      handle.onExit().get(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return !handle.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !handle.isAlive();
    }
  }

  /**
   * Asks the child JVM for a thread dump (SIGQUIT: the JVM prints it to its stdout, which is the log) and waits up
   * to {@code wait} for it to be written. Returns the dump, or an empty string if none came (e.g. the process is a
   * wrapper, not a JVM).
   */
  public String threadDump(Duration wait) {
    try {
      long before = Files.size(log);
      Process quit = new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid()))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      quit.waitFor(5, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + wait.toNanos();
      long lastSize = -1;
      while (System.nanoTime() < deadline) {
        Thread.sleep(200);
        long size = Files.size(log);
        if (size == lastSize && size > before) {
          break; // stopped growing
        }
        lastSize = size;
      }
      String written = readRange(log, before, Files.size(log));
      int start = written.indexOf("Full thread dump");
      return start < 0 ? "" : written.substring(start);
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** {@code file}'s bytes in [from, to), at most the last 16 MB of them, as text. */
  public static String readRange(Path file, long from, long to) throws IOException {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long end = Math.min(to, in.length());
      int length = (int) Math.max(0, Math.min(end - from, 16L * 1024 * 1024));
      byte[] bytes = new byte[length];
      in.seek(end - length);
      in.readFully(bytes);
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * The stacks of the threads in {@code dump} whose names start with one of {@code names}, each cut to
   * {@code frames} lines.
   */
  public static String stacks(String dump, List<String> names, int frames) {
    StringBuilder out = new StringBuilder();
    for (String block : dump.split("\\R\\s*\\R")) {
      String trimmed = block.strip();
      boolean wanted = names.stream().anyMatch(name -> trimmed.startsWith("\"" + name));
      if (wanted) {
        trimmed.lines().limit(frames).forEach(line -> out.append(line).append('\n'));
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** The last {@code lines} lines of the log. */
  public String tail(int lines) {
    return tail(log, lines);
  }

  /** The last {@code lines} lines of {@code file}, or a note saying why there are none. */
  public static String tail(Path file, int lines) {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long length = in.length();
      long start = Math.max(0, length - TAIL_BYTES);
      byte[] bytes = new byte[(int) (length - start)];
      in.seek(start);
      in.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      List<String> all = text.lines().toList();
      if (start > 0 && !all.isEmpty()) {
        all = all.subList(1, all.size()); // the first one is probably cut
      }
      List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
      return String.join("\n", last);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /**
   * For the child's main: when the JVM named by {@link #PARENT_PID_PROPERTY} exits, exit too (status 143, as after
   * a SIGTERM; shutdown hooks run). Does nothing when the property is unset (the main was started by hand).
   */
  public static void exitWhenParentDies() {
    whenParentDies(() -> System.exit(143));
  }

  /**
   * For the child's main: runs {@code action} (on another thread) when the JVM named by
   * {@link #PARENT_PID_PROPERTY} exits, or right away if it is already gone. Does nothing when the property is
   * unset.
   */
  public static void whenParentDies(Runnable action) {
    String parent = System.getProperty(PARENT_PID_PROPERTY);
    if (parent == null || parent.isBlank()) {
      return;
    }
    Runnable report = () -> {
      System.err.println("parent process " + parent.trim() + " is gone; exiting");
      action.run();
    };
    ProcessHandle.of(Long.parseLong(parent.trim())).filter(ProcessHandle::isAlive).ifPresentOrElse(
        handle -> handle.onExit().thenRun(report),
        () -> new Thread(report, "parent-gone").start());
  }
}

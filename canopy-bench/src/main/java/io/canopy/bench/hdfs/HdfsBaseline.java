package io.canopy.bench.hdfs;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A running HDFS baseline: {@link HdfsBaselineMain} in a child JVM (this JVM's java and class path), its output
 * and Hadoop's WARN log in {@code DIR/hdfs.log}. {@link #start} returns once the cluster is active with every
 * datanode live; {@link #close} stops it. No process is left behind: a failed start kills the child, and the
 * child exits by itself if this JVM dies.
 */
public final class HdfsBaseline implements AutoCloseable {
  /**
   * The namenode and its datanodes share this JVM: at least the heap Canopy's namenode (3 GB) and datanodes (384 MB
   * each) get from {@code canopy up}, so neither side wins by collecting garbage less often.
   */
  public static final String DEFAULT_HEAP = "-Xmx4g";
  private static final Pattern READY = Pattern.compile(
      "(?m)^" + Pattern.quote(HdfsBaselineMain.READY_PREFIX) + "(hdfs://127\\.0\\.0\\.1:\\d+)\\s*$");
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final int TAIL_LINES = 60;

  private final ChildJvm child;
  private final String uri;
  private final Path dir;

  private HdfsBaseline(ChildJvm child, String uri, Path dir) {
    this.child = child;
    this.uri = uri;
    this.dir = dir;
  }

  /** Starts a baseline with {@code datanodes} datanodes and {@code conf} settings, under {@code dir}. */
  public static HdfsBaseline start(Path dir, int datanodes, Map<String, String> conf, Duration timeout)
      throws IOException {
    return start(dir, datanodes, conf, timeout, List.of());
  }

  /**
   * As {@link #start(Path, int, Map, Duration)}, with extra JVM options for the child (after the default heap
   * {@value #DEFAULT_HEAP}, so e.g. {@code -Xmx4g} overrides it; {@code -Dlog4j.configuration=...} replaces the
   * WARN-to-file logging).
   */
  public static HdfsBaseline start(Path dir, int datanodes, Map<String, String> conf, Duration timeout,
      List<String> jvmOptions) throws IOException {
    if (datanodes < 0) {
      throw new IllegalArgumentException("datanodes must be >= 0, got " + datanodes);
    }
    Path root = dir.toAbsolutePath();
    Files.createDirectories(root);
    Path log = root.resolve(HdfsBaselineMain.LOG_FILE);
    List<String> arguments = new ArrayList<>();
    arguments.add(root.toString());
    arguments.add(Integer.toString(datanodes));
    conf.forEach((key, value) -> {
      if (key.isBlank() || key.contains("=")) {
        throw new IllegalArgumentException("invalid setting name: '" + key + "'");
      }
      arguments.add(key + "=" + value);
    });
    List<String> command = ChildJvm.javaCommand(List.of(), DEFAULT_HEAP, jvmOptions,
        HdfsBaselineMain.class.getName(), arguments);
    // A fresh log per start: it must not show the ready line of an earlier run.
    Files.writeString(log, "==== canopy bench: starting the HDFS baseline at " + Instant.now() + "\n",
        StandardCharsets.UTF_8);
    ChildJvm child = ChildJvm.start(command, log, root);
    try {
      String uri = awaitReady(child, log, timeout);
      return new HdfsBaseline(child, uri, root);
    } catch (IOException | RuntimeException | Error e) {
      child.kill();
      throw e;
    }
  }

  private static String awaitReady(ChildJvm child, Path log, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    StringBuilder seen = new StringBuilder();
    long position = 0;
    while (true) {
      position = readFrom(log, position, seen);
      Matcher matcher = READY.matcher(seen);
      if (matcher.find()) {
        return matcher.group(1);
      }
      if (!child.isAlive()) {
        position = readFrom(log, position, seen);
        matcher = READY.matcher(seen);
        if (matcher.find()) {
          throw new IOException("The HDFS baseline (pid " + child.pid() + ") printed its ready line but exited "
              + "with status " + child.process().exitValue() + "; " + log + " ends with:\n" + child.tail(TAIL_LINES));
        }
        throw new IOException("The HDFS baseline (pid " + child.pid() + ") exited with status "
            + child.process().exitValue() + " before it was ready; " + log + " ends with:\n"
            + child.tail(TAIL_LINES));
      }
      if (System.nanoTime() > deadline) {
        child.kill();
        throw new IOException("The HDFS baseline (pid " + child.pid() + ") was not ready after "
            + timeout.toSeconds() + " s; killed it. " + log + " ends with:\n" + child.tail(TAIL_LINES));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted while waiting for the HDFS baseline to start", e);
      }
    }
  }

  /** Appends what {@code file} holds from {@code position} on to {@code text}; returns the new position. */
  private static long readFrom(Path file, long position, StringBuilder text) throws IOException {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long length = in.length();
      if (length <= position) {
        return position;
      }
      byte[] bytes = new byte[(int) Math.min(length - position, 16 * 1024 * 1024)];
      in.seek(position);
      in.readFully(bytes);
      text.append(new String(bytes, StandardCharsets.ISO_8859_1));
      return position + bytes.length;
    }
  }

  /** The namenode's address, {@code hdfs://127.0.0.1:PORT}. */
  public String uri() {
    return uri;
  }

  /** The pid of the JVM that runs the whole cluster (namenode and datanodes), e.g. to pin it with taskset. */
  public long pid() {
    return child.pid();
  }

  public Path dir() {
    return dir;
  }

  /** The log file: the process's output and Hadoop's log. */
  public Path log() {
    return child.log();
  }

  public boolean isAlive() {
    return child.isAlive();
  }

  /**
   * Stops the cluster: SIGTERM (a clean MiniDFSCluster shutdown), then SIGKILL if it has not exited after 30 s.
   * Returns once the process is gone. Idempotent.
   */
  @Override
  public void close() {
    child.stop(STOP_GRACE);
  }

  @Override
  public String toString() {
    return "HDFS baseline " + uri + " (pid " + child.pid() + ", " + dir + ")";
  }
}

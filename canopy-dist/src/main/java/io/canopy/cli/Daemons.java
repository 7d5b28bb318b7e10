package io.canopy.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The background processes of a cluster, known by their pid files. A pid only counts as the role's process when the
 * live process carries the role's markers ({@code -Dcanopy.dir=DIR -Dcanopy.role=ROLE}) on its command line, so a
 * recycled pid is never mistaken for (or signalled as) a Canopy process.
 */
public final class Daemons {
  public static final String DIR_MARKER = "-Dcanopy.dir=";
  public static final String ROLE_MARKER = "-Dcanopy.role=";
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);

  private final ClusterLayout layout;

  public Daemons(ClusterLayout layout) {
    this.layout = layout;
  }

  /** A role whose pid file names a live process. */
  public record Running(Role role, ProcessHandle process) {
    public long pid() {
      return process.pid();
    }
  }

  public static OptionalLong readPid(Path pidFile) {
    try {
      return OptionalLong.of(Long.parseLong(Files.readString(pidFile).trim()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  public void writePid(Role role, long pid) throws IOException {
    Files.createDirectories(layout.runDir());
    Files.writeString(layout.pidFile(role), pid + "\n");
  }

  public void removePid(Role role) throws IOException {
    Files.deleteIfExists(layout.pidFile(role));
  }

  /** The live process of {@code role}, if its pid file names one that carries the role's markers. */
  public Optional<ProcessHandle> running(Role role) {
    OptionalLong pid = readPid(layout.pidFile(role));
    if (pid.isEmpty()) {
      return Optional.empty();
    }
    return ProcessHandle.of(pid.getAsLong()).filter(ProcessHandle::isAlive).filter(process -> isOurs(process, role));
  }

  private boolean isOurs(ProcessHandle process, Role role) {
    Optional<List<String>> arguments = arguments(process);
    if (arguments.isEmpty()) {
      // The command line is unreadable (not our user's process): it cannot be one we started.
      return false;
    }
    return arguments.get().contains(DIR_MARKER + layout.root())
        && arguments.get().contains(ROLE_MARKER + role.name());
  }

  /**
   * The command line of a process. Read from /proc where there is one: the JDK's {@code ProcessHandle.Info} reads
   * only the first 4096 bytes and then reports no arguments at all, and our class paths are longer than that.
   */
  static Optional<List<String>> arguments(ProcessHandle process) {
    Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
    if (Files.isReadable(cmdline)) {
      try {
        String text = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8);
        return Optional.of(Arrays.asList(text.split("\0")));
      } catch (IOException e) {
        // Exited meanwhile or not ours to read: fall back to what the JDK can tell.
      }
    }
    return process.info().arguments().map(Arrays::asList);
  }

  /** Roles that have a pid file, in start order, whatever the current counts say. */
  public List<Role> rolesWithPidFiles() throws IOException {
    List<Role> roles = new ArrayList<>();
    if (!Files.isDirectory(layout.runDir())) {
      return roles;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(layout.runDir(), "*.pid")) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        Role.parse(name.substring(0, name.length() - ".pid".length())).ifPresent(roles::add);
      }
    }
    roles.sort(Comparator.comparing(Role::kind).thenComparingInt(Role::index));
    return roles;
  }

  /**
   * Stops processes: SIGTERM to all at once, then waits until {@code timeout} for them to exit, then SIGKILL to the
   * rest. Reports each to {@code out} and removes the pid files of those that are gone. Returns how many it stopped.
   */
  public int stop(List<Running> processes, Duration timeout, PrintWriter out) throws IOException {
    for (Running running : processes) {
      running.process().destroy();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    int stopped = 0;
    for (Running running : processes) {
      long leftNanos = Math.max(0, deadline - System.nanoTime());
      boolean exited = awaitExit(running.process(), Duration.ofNanos(leftNanos));
      if (!exited) {
        running.process().destroyForcibly();
        exited = awaitExit(running.process(), KILL_WAIT);
        out.println((exited ? "killed " : "could not kill ") + running.role() + " (pid " + running.pid()
            + ") after it ignored SIGTERM for " + timeout.toSeconds() + " s");
      } else {
        out.println("stopped " + running.role() + " (pid " + running.pid() + ")");
      }
      if (exited) {
        stopped++;
        removePid(running.role());
      }
    }
    out.flush();
    return stopped;
  }

  static boolean awaitExit(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return !process.isAlive();
    } catch (ExecutionException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }
}

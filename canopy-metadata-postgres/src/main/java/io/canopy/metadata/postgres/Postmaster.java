package io.canopy.metadata.postgres;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The PostgreSQL server process of a data directory, found through its {@code postmaster.pid} file.
 *
 * <p>zonky starts PostgreSQL with {@code pg_ctl start}, so the server is not a child of the JVM that asked for it: if
 * that JVM is killed (SIGKILL, OOM, power loss of the launcher) the server keeps running as an orphan and holds the
 * data directory. A new start must stop such an orphan first, and must delete a {@code postmaster.pid} left by a
 * server that no longer exists (PostgreSQL refuses to start when its pid was reused by an unrelated process).
 *
 * <p>A server is an orphan only when no launcher holds the data directory's {@value #LAUNCHER_LOCK_FILE}: zonky
 * takes that file lock for as long as its {@code EmbeddedPostgres} is open, and the operating system drops it when
 * the launcher dies, however it dies.
 */
public final class Postmaster {
  /** The lock file PostgreSQL keeps in its data directory while it runs; the first line is the server's pid. */
  public static final String PID_FILE = "postmaster.pid";
  /** The file zonky's EmbeddedPostgres locks in the data directory while it runs the server. */
  public static final String LAUNCHER_LOCK_FILE = "epg-lock";
  private static final Duration POLL = Duration.ofMillis(100);

  private Postmaster() {
  }

  /** The pid written in the data directory's {@code postmaster.pid}, if the file exists and is readable. */
  public static OptionalLong recordedPid(Path dataDirectory) {
    Path pidFile = dataDirectory.resolve(PID_FILE);
    try {
      List<String> lines = Files.readAllLines(pidFile);
      if (!lines.isEmpty()) {
        return OptionalLong.of(Long.parseLong(lines.get(0).trim()));
      }
    } catch (IOException | NumberFormatException e) {
      // Absent, being written or unreadable: there is no server we can identify.
    }
    return OptionalLong.empty();
  }

  /** The live PostgreSQL server of this data directory, if its {@code postmaster.pid} names one. */
  public static Optional<ProcessHandle> running(Path dataDirectory) {
    OptionalLong pid = recordedPid(dataDirectory);
    if (pid.isEmpty()) {
      return Optional.empty();
    }
    return ProcessHandle.of(pid.getAsLong()).filter(ProcessHandle::isAlive).filter(Postmaster::isPostgres);
  }

  /**
   * The live server of this data directory when no launcher holds it any more. Never call this while this JVM runs
   * an embedded server on the same directory: probing the lock from the same JVM could release it.
   */
  public static Optional<ProcessHandle> orphan(Path dataDirectory) {
    return running(dataDirectory).filter(server -> !launcherHoldsLock(dataDirectory));
  }

  /** Whether some process holds the launcher lock of this data directory. */
  public static boolean launcherHoldsLock(Path dataDirectory) {
    Path lockFile = dataDirectory.resolve(LAUNCHER_LOCK_FILE);
    if (!Files.exists(lockFile)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      // Cannot even open it: assume held, the side that never stops a server someone runs.
      return true;
    }
  }

  private static boolean isPostgres(ProcessHandle process) {
    // Without a readable command (another user's process) we cannot tell: assume it is the server, the safe side.
    return process.info().command().map(command -> command.endsWith("postgres")).orElse(true);
  }

  /** Deletes {@code postmaster.pid} when no PostgreSQL server with that pid is alive. Returns whether it did. */
  public static boolean clearStalePidFile(Path dataDirectory) throws IOException {
    if (Files.exists(dataDirectory.resolve(PID_FILE)) && running(dataDirectory).isEmpty()) {
      return Files.deleteIfExists(dataDirectory.resolve(PID_FILE));
    }
    return false;
  }

  /**
   * Stops a server with PostgreSQL's "fast" shutdown (SIGINT: roll back open transactions, checkpoint, exit); if it
   * has not exited after {@code timeout}, with "immediate" shutdown (SIGQUIT, crash recovery at the next start).
   * Returns whether the server is gone.
   */
  public static boolean stop(ProcessHandle server, Duration timeout) {
    signal(server.pid(), "INT");
    if (awaitExit(server, timeout)) {
      return true;
    }
    signal(server.pid(), "QUIT");
    return awaitExit(server, Duration.ofSeconds(10));
  }

  /** Waits until {@code process} has exited or {@code timeout} passed; returns whether it exited. */
  public static boolean awaitExit(ProcessHandle process, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (process.isAlive()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !process.isAlive();
      }
    }
    return true;
  }

  private static void signal(long pid, String signal) {
    // ProcessHandle can only send SIGTERM and SIGKILL; PostgreSQL's useful shutdown modes need SIGINT and SIGQUIT.
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      kill.waitFor();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot run kill to stop PostgreSQL (pid " + pid + "): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.canopy.metadata.postgres;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Process entry point: {@code EmbeddedPostgresMain DATA_DIR SECRETS_DIR PORT}. Runs the embedded PostgreSQL server of
 * a Canopy cluster on 127.0.0.1:PORT with its data in DATA_DIR and its passwords in SECRETS_DIR (see
 * {@link EmbeddedPostgresServer}), prints {@code ready jdbc:postgresql://127.0.0.1:PORT/postgres} once it accepts
 * queries and its roles are set up, and stops it cleanly when this process gets SIGTERM or SIGINT.
 *
 * <p>The server is a grandchild (started by {@code pg_ctl}), so this process also watches it: if PostgreSQL dies,
 * this process exits with status 1 so that {@code canopy status} shows the database as stopped.
 */
public final class EmbeddedPostgresMain {
  private static final Duration ORPHAN_STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
  private static final long WATCH_INTERVAL_MS = 1000;

  private EmbeddedPostgresMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: EmbeddedPostgresMain DATA_DIR SECRETS_DIR PORT");
      System.exit(2);
    }
    Path dataDirectory = Path.of(args[0]).toAbsolutePath().normalize();
    Path secretsDirectory = Path.of(args[1]).toAbsolutePath().normalize();
    int port;
    try {
      port = Integer.parseInt(args[2]);
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 0 || port > 65535) {
      System.err.println("EmbeddedPostgresMain: PORT must be within [0, 65535], got '" + args[2] + "'");
      System.exit(2);
    }
    stopOrphan(dataDirectory);
    if (Postmaster.clearStalePidFile(dataDirectory)) {
      System.out.println("removed a stale " + Postmaster.PID_FILE + " from " + dataDirectory);
    }
    EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDirectory, secretsDirectory, port);
    OptionalLong serverPid = Postmaster.recordedPid(dataDirectory);
    CountDownLatch stopping = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(server, dataDirectory, stopping), "postgres-stop"));
    System.out.println("PostgreSQL server pid " + (serverPid.isPresent() ? serverPid.getAsLong() : "unknown")
        + ", data directory " + dataDirectory);
    System.out.println("ready " + server.jdbcUrl());
    System.out.flush();
    watch(serverPid, stopping);
  }

  /** Stops a server left running by an earlier launcher that was killed before it could stop it. */
  private static void stopOrphan(Path dataDirectory) {
    Optional<ProcessHandle> server = Postmaster.running(dataDirectory);
    if (server.isEmpty()) {
      return;
    }
    long pid = server.get().pid();
    if (Postmaster.launcherHoldsLock(dataDirectory)) {
      System.err.println("EmbeddedPostgresMain: PostgreSQL pid " + pid + " already serves " + dataDirectory
          + " for another launcher; stop that one first");
      System.exit(1);
    }
    System.out.println("stopping PostgreSQL pid " + pid + " left running on " + dataDirectory
        + " by an earlier launcher");
    if (!Postmaster.stop(server.get(), ORPHAN_STOP_TIMEOUT)) {
      System.err.println("EmbeddedPostgresMain: PostgreSQL pid " + pid + " still holds " + dataDirectory
          + " after SIGINT and SIGQUIT; stop it by hand (kill -9 " + pid + ")");
      System.exit(1);
    }
  }

  private static void watch(OptionalLong serverPid, CountDownLatch stopping) throws InterruptedException {
    if (serverPid.isEmpty()) {
      stopping.await();
      return;
    }
    Optional<ProcessHandle> server = ProcessHandle.of(serverPid.getAsLong());
    while (!stopping.await(WATCH_INTERVAL_MS, TimeUnit.MILLISECONDS)) {
      if (server.isEmpty() || !server.get().isAlive()) {
        System.err.println("PostgreSQL (pid " + serverPid.getAsLong() + ") exited unexpectedly; see the lines above");
        System.exit(1);
      }
    }
  }

  private static void shutdown(EmbeddedPostgresServer server, Path dataDirectory, CountDownLatch stopping) {
    stopping.countDown();
    System.out.println("stopping PostgreSQL");
    try {
      server.close();
    } catch (Exception e) {
      System.err.println("pg_ctl stop failed: " + e.getMessage());
    }
    // pg_ctl gives up after a few seconds; make sure the server is really gone before this process exits.
    Optional<ProcessHandle> still = Postmaster.running(dataDirectory);
    if (still.isPresent() && !Postmaster.stop(still.get(), SHUTDOWN_TIMEOUT)) {
      System.err.println("PostgreSQL pid " + still.get().pid() + " did not stop");
      return;
    }
    System.out.println("PostgreSQL stopped");
    System.out.flush();
  }
}

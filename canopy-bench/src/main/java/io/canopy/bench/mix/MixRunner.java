package io.canopy.bench.mix;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Runs the Spotify mix (or another {@link OperationMix}) against any {@code hdfs://} file system through the Hadoop
 * {@code FileSystem} API.
 *
 * <p><b>Clients.</b> Spotify's clients are many separate processes, each with its own connection to the namenode.
 * Each client thread therefore gets its own {@code FileSystem.newInstance} (its own {@code DFSClient}, lease renewer
 * and client name). Hadoop's IPC layer would still multiplex every {@code DFSClient} of one user in a JVM over one
 * TCP connection per namenode (connections are keyed by address, protocol and UGI), so with
 * {@link MixSettings#connectionPerThread()} each thread's client is created as a distinct UGI of the same user name
 * ({@code UserGroupInformation.createRemoteUser}): same owner and permissions on the server, one connection per
 * thread. That works with SIMPLE authentication only; with Kerberos turn it off.
 *
 * <p><b>Phases.</b> The namespace is built (or found) first, then every client is created, then the clock starts:
 * operations starting before the warm-up ends are not recorded; after it, the recorded part runs for the duration
 * or for the fixed operation count. Throughput divides by the time from the end of the warm-up to the end of the
 * last recorded operation.
 *
 * <p><b>Namespace drift.</b> Creates add files, deletes remove them (this run's own first), mkdirs add directories.
 * With the Spotify weights the file count grows by about (2.7 - 0.75)% of the operations (write-heavy: about 19.4%);
 * the original tree is only thinned once the run's own files are all deleted. {@link MixResult} reports the counts
 * before and after.
 */
public final class MixRunner {
  /** How long after the planned end a stuck client thread is waited for before the run is declared hung. */
  static final Duration STUCK_GRACE = Duration.ofSeconds(120);
  private static final long PROGRESS_INTERVAL_MS = 10_000;

  private final URI uri;
  private final Configuration configuration;
  private final MixSettings settings;
  private final LongSupplier nanoClock;
  private final String runId;

  public MixRunner(URI uri, Configuration configuration, MixSettings settings) {
    this(uri, configuration, settings, System::nanoTime,
        Long.toString(System.currentTimeMillis(), 36) + Integer.toString((int) (System.nanoTime() & 0xfff), 36));
  }

  /** With an injected clock and run id (the id goes into every new name, so it must differ between runs). */
  MixRunner(URI uri, Configuration configuration, MixSettings settings, LongSupplier nanoClock, String runId) {
    this.uri = Objects.requireNonNull(uri, "uri");
    this.configuration = new Configuration(Objects.requireNonNull(configuration, "configuration"));
    this.settings = Objects.requireNonNull(settings, "settings");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.runId = Objects.requireNonNull(runId, "runId");
  }

  /**
   * Builds the namespace under {@link MixSettings#baseDirectory()} unless a complete one of the same shape and seed
   * is there, runs the mix, and returns what it measured. The harness calls this once per system with the same
   * settings.
   */
  public static MixResult runAgainst(URI uri, Configuration configuration, MixSettings settings,
      PrintWriter progress) throws IOException {
    MixNamespace namespace;
    try (FileSystem fileSystem = FileSystem.newInstance(uri, configuration)) {
      namespace = new NamespaceBuilder(fileSystem, settings.shape(), settings.seed(), settings.builderThreads(),
          progress).buildOrLoad(new Path(settings.baseDirectory()));
    }
    return new MixRunner(uri, configuration, settings).run(namespace, progress);
  }

  /** Runs the mix on {@code namespace} (built by {@link NamespaceBuilder} with the same shape). */
  public MixResult run(MixNamespace namespace, PrintWriter progress) throws IOException {
    return run(namespace, progress, RecordedInterval.NONE);
  }

  /** As {@link #run(MixNamespace, PrintWriter)}, telling {@code interval} when the recorded part starts and ends. */
  public MixResult run(MixNamespace namespace, PrintWriter progress, RecordedInterval interval) throws IOException {
    MixState state = newState(namespace);
    String userName = state.userName;
    String group = state.group;
    progress.println(String.format(Locale.ROOT, "mix: %s; %d threads, %.1f s warm-up, then %s; seed %d, run %s, "
        + "chown to %s:%s", settings.mix().describe(), settings.threads(), settings.warmup().toMillis() / 1000.0,
        settings.countBased() ? settings.totalOperations() + " operations"
            : String.format(Locale.ROOT, "%.1f s", settings.duration().toMillis() / 1000.0),
        settings.seed(), runId, userName, group));
    progress.flush();
    List<FileSystem> clients = new ArrayList<>();
    try {
      for (int i = 0; i < settings.threads(); i++) {
        clients.add(newClient(userName));
      }
      int sampleCapacity = Math.max(1, settings.maxLatencySamplesPerOperation() / settings.threads());
      List<MixWorker> workers = new ArrayList<>();
      for (int i = 0; i < settings.threads(); i++) {
        workers.add(new MixWorker(i, clients.get(i), state, settings.seed(), sampleCapacity));
      }
      runWorkers(workers, state, progress, interval);
      return result(namespace, state, workers);
    } finally {
      closeAll(clients, progress);
    }
  }

  /** The state the client threads of one run on {@code namespace} share: working sets, clock, owner and group. */
  MixState newState(MixNamespace namespace) throws IOException {
    UserGroupInformation currentUser = UserGroupInformation.getCurrentUser();
    String userName = currentUser.getShortUserName();
    String group = settings.chownGroup() != null ? settings.chownGroup() : primaryGroup(currentUser, namespace);
    return new MixState(namespace, settings, runId, userName, group, nanoClock);
  }

  private FileSystem newClient(String userName) throws IOException {
    return newClient(uri, configuration, userName, settings.connectionPerThread());
  }

  /**
   * A client of its own: with {@code connectionPerThread} as a distinct UGI of {@code userName}, so that it also
   * gets its own RPC connection (see the class comment).
   */
  static FileSystem newClient(URI uri, Configuration configuration, String userName, boolean connectionPerThread)
      throws IOException {
    if (!connectionPerThread) {
      return FileSystem.newInstance(uri, configuration);
    }
    UserGroupInformation client = UserGroupInformation.createRemoteUser(userName);
    try {
      return client.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, configuration));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while connecting to " + uri);
    }
  }

  private void runWorkers(List<MixWorker> workers, MixState state, PrintWriter progress, RecordedInterval interval)
      throws IOException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (MixWorker worker : workers) {
      Thread thread = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        worker.run();
      }, "mix-client-" + worker.index());
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    long warmupNanos = settings.warmup().toNanos();
    long durationNanos = settings.countBased() ? 0 : settings.duration().toNanos();
    state.start(warmupNanos, durationNanos);
    go.countDown();
    long deadlineMs = settings.countBased() ? Long.MAX_VALUE
        : System.currentTimeMillis() + (warmupNanos + durationNanos) / 1_000_000 + STUCK_GRACE.toMillis();
    try {
      interval.startAt(state.warmupEndNanos(), nanoClock);
      for (int i = 0; i < threads.size(); i++) {
        Thread thread = threads.get(i);
        while (thread.isAlive()) {
          long remainingMs = deadlineMs - System.currentTimeMillis();
          if (remainingMs <= 0) {
            throw stuck(workers, threads);
          }
          thread.join(Math.min(remainingMs, PROGRESS_INTERVAL_MS));
          if (thread.isAlive()) {
            long now = nanoClock.getAsLong();
            progress.println(state.warmingUp(now) ? "mix: warming up" : String.format(Locale.ROOT,
                "mix: %d operations recorded in %.0f s", state.recordedOperations.sum(),
                (now - state.warmupEndNanos()) / 1e9));
            progress.flush();
          }
        }
      }
    } catch (InterruptedException e) {
      threads.forEach(Thread::interrupt);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the mix ran");
    } catch (IOException e) {
      threads.forEach(Thread::interrupt); // a failed measurement ends the run: no client may keep going
      throw e;
    }
    interval.ended();
    for (MixWorker worker : workers) {
      if (worker.crash() != null) {
        throw new IOException("mix client thread " + worker.index() + " crashed: " + worker.crash(),
            worker.crash());
      }
    }
  }

  private static IOException stuck(List<MixWorker> workers, List<Thread> threads) {
    StringBuilder message = new StringBuilder("mix clients still busy " + STUCK_GRACE.toSeconds()
        + " s after the planned end (the file system stopped answering?):");
    for (int i = 0; i < threads.size(); i++) {
      if (threads.get(i).isAlive()) {
        message.append(" thread ").append(i).append(" in ").append(workers.get(i).current()).append(';');
        threads.get(i).interrupt();
      }
    }
    return new IOException(message.toString());
  }

  private MixResult result(MixNamespace namespace, MixState state, List<MixWorker> workers) {
    long lastEnd = state.warmupEndNanos();
    long warmupOperations = 0;
    for (MixWorker worker : workers) {
      lastEnd = Math.max(lastEnd, worker.lastRecordedEndNanos());
      warmupOperations += worker.warmupOperations();
    }
    double measuredSeconds = Math.max(1e-9, (lastEnd - state.warmupEndNanos()) / 1e9);
    List<MixResult.OperationResult> operations = new ArrayList<>();
    List<LatencySamples> everything = new ArrayList<>();
    long totalCount = 0;
    long recordedFailures = 0;
    long warmupFailures = 0;
    for (MixOperation operation : MixOperation.values()) {
      List<LatencySamples> parts = new ArrayList<>();
      long failures = 0;
      long failuresInWarmup = 0;
      for (MixWorker worker : workers) {
        parts.add(worker.latencies(operation));
        failures += worker.recordedFailures(operation);
        failuresInWarmup += worker.warmupFailures(operation);
      }
      everything.addAll(parts);
      LatencyStatistics latency = LatencySamples.merge(parts);
      operations.add(new MixResult.OperationResult(operation, latency.count(), failures, failuresInWarmup,
          latency.count() / measuredSeconds, latency));
      totalCount += latency.count();
      recordedFailures += failures;
      warmupFailures += failuresInWarmup;
    }
    MixResult.NamespaceSummary summary = new MixResult.NamespaceSummary(namespace.base().toUri().getPath(),
        settings.shape().describe(), namespace.built(), namespace.seconds(), namespace.directories().size(),
        namespace.files().size());
    return new MixResult(uri.toString(), settings.mix().describe(), settings.seed(), settings.threads(),
        settings.warmup().toMillis() / 1000.0, measuredSeconds, operations, totalCount, recordedFailures,
        totalCount / measuredSeconds, LatencySamples.merge(everything), warmupOperations, warmupFailures,
        state.failureMessages(), summary, state.directories.size(), state.files.size());
  }

  /**
   * The current user's primary group (what HDFS accepts from a non-superuser owner: its own groups); if the client
   * cannot resolve groups, the base directory's group.
   */
  private String primaryGroup(UserGroupInformation user, MixNamespace namespace) throws IOException {
    try {
      return user.getPrimaryGroupName();
    } catch (IOException noGroups) {
      try (FileSystem fileSystem = FileSystem.newInstance(uri, configuration)) {
        return fileSystem.getFileStatus(namespace.base()).getGroup();
      }
    }
  }

  static void closeAll(List<FileSystem> clients, PrintWriter progress) {
    for (FileSystem client : clients) {
      try {
        client.close();
      } catch (IOException | RuntimeException e) {
        progress.println("mix: closing a client failed (ignored): " + e);
      }
    }
    progress.flush();
  }

  /**
   * {@code MixRunner URI [--threads N] [--warmup SECONDS] [--seconds SECONDS | --operations N] [--seed N]
   * [--depth N] [--files N] [--subdirectories N] [--max-file-bytes N] [--builder-threads N] [--mix NAME]
   * [--base PATH]}.
   */
  public static void main(String[] args) throws IOException {
    if (args.length == 0 || args[0].startsWith("-")) {
      System.err.println("usage: MixRunner hdfs://HOST:PORT [--threads N] [--warmup S]"
          + " [--seconds S | --operations N] [--seed N] [--depth N] [--files N] [--subdirectories N]"
          + " [--max-file-bytes N] [--builder-threads N]"
          + " [--mix spotify|write-heavy|write-heavy-from-reads|uniform] [--base PATH]");
      System.exit(2);
    }
    MixSettings settings = MixSettings.defaults();
    NamespaceShape shape = settings.shape();
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + args[i] + " needs a value");
      }
      String value = args[i + 1];
      switch (args[i]) {
        case "--threads" -> settings = settings.withThreads(Integer.parseInt(value));
        case "--warmup" -> settings = settings.withWarmup(secondsOption(value));
        case "--seconds" -> settings = settings.withDuration(secondsOption(value));
        case "--operations" -> settings = settings.withTotalOperations(Long.parseLong(value));
        case "--seed" -> settings = settings.withSeed(Long.parseLong(value));
        case "--builder-threads" -> settings = settings.withBuilderThreads(Integer.parseInt(value));
        case "--depth" -> shape = shape.withDepth(Integer.parseInt(value));
        case "--files" -> shape = shape.withFilesPerDirectory(Integer.parseInt(value));
        case "--subdirectories" -> shape = shape.withSubdirectoriesPerDirectory(Integer.parseInt(value));
        case "--max-file-bytes" -> shape = shape.withMaxFileBytes(Integer.parseInt(value));
        case "--mix" -> settings = settings.withMix(OperationMix.named(value));
        case "--base" -> settings = settings.withBaseDirectory(value);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    PrintWriter out = new PrintWriter(System.out, true);
    MixResult result = runAgainst(URI.create(args[0]), new Configuration(), settings.withShape(shape), out);
    out.print(result.toText());
    out.flush();
    System.exit(result.totalFailures() == 0 ? 0 : 1);
  }

  private static Duration secondsOption(String value) {
    return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
  }
}

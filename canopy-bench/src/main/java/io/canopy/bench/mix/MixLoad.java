package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The mix of {@link MixSettings} (the Spotify mix) running as a background load until closed, measured in
 * {@link CallWindows.Window}s like {@link ParentDirectoryLoad} (issue 16: a Spotify mix elsewhere in the namespace
 * while a big directory is deleted). The same clients, state and workers as {@link MixRunner}: only the phases
 * differ. The runner's warm-up and duration are ignored (whoever opens the windows decides when to measure); each
 * operation's file-system call is what a window counts and times, as the runner times it.
 */
public final class MixLoad implements AutoCloseable {
  /** The longest a load runs when it is never closed: far above any window of the benchmark. */
  static final Duration MAX_RUN = Duration.ofHours(1);
  /** The workers' own latency samples per operation type; unread (the windows measure), so kept small. */
  private static final int WORKER_SAMPLES_PER_OPERATION = 256;

  private final MixState state;
  private final CallWindows windows;
  private final List<FileSystem> clients = new ArrayList<>();
  private final List<MixWorker> workers = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();

  private MixLoad(MixState state, CallWindows windows) {
    this.state = state;
    this.windows = windows;
  }

  /**
   * Connects {@link MixSettings#threads()} clients and starts the mix on {@code namespace} (built by
   * {@link NamespaceBuilder} with the settings' shape and seed).
   */
  public static MixLoad start(URI uri, Configuration conf, MixSettings settings, MixNamespace namespace)
      throws IOException {
    Preconditions.checkArgument(!settings.countBased(),
        "a mix load runs until it is closed; settings for a fixed operation count do not fit");
    MixState state = new MixRunner(uri, conf, settings).newState(namespace);
    MixLoad load = new MixLoad(state, new CallWindows(settings.threads(), settings.seed(), state.nanoClock,
        "a Spotify-mix client"));
    try {
      for (int i = 0; i < settings.threads(); i++) {
        load.clients.add(MixRunner.newClient(uri, conf, state.userName, settings.connectionPerThread()));
      }
    } catch (IOException e) {
      load.close();
      throw e;
    }
    state.start(0, MAX_RUN.toNanos());
    for (int i = 0; i < settings.threads(); i++) {
      int index = i;
      MixWorker worker = new MixWorker(i, load.clients.get(i), state, settings.seed(), WORKER_SAMPLES_PER_OPERATION,
          load.windows);
      Thread thread = new Thread(() -> {
        try {
          worker.run();
        } finally {
          load.windows.stopped(index);
        }
      }, "mix-load-" + i);
      thread.setDaemon(true);
      load.workers.add(worker);
      load.threads.add(thread);
      thread.start();
    }
    return load;
  }

  /** Opens a window now; {@link CallWindows.Window#end()} closes it. */
  public CallWindows.Window startWindow() {
    return windows.startWindow();
  }

  /**
   * Stops the workers (after their operations in flight, bounded) and closes the clients; a worker that crashed
   * (not a failed operation: those are counted in the windows) is an error.
   */
  @Override
  public void close() throws IOException {
    state.stop();
    CallWindows.joinThenClose(threads, clients);
    for (MixWorker worker : workers) {
      if (worker.crash() != null) {
        throw new IOException("Spotify-mix client thread " + worker.index() + " crashed: " + worker.crash(),
            worker.crash());
      }
    }
  }
}

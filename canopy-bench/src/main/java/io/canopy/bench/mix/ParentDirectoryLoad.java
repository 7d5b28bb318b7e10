package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Clients working in one directory while something else happens to it (issue 16: the parent of a directory being
 * deleted): each thread, with a client of its own, repeats create (empty file), getFileStatus and delete of its own
 * files {@code w<thread>-<n>}, until closed. Measured in {@link CallWindows.Window}s.
 */
public final class ParentDirectoryLoad implements AutoCloseable {
  private final List<FileSystem> clients = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final CallWindows windows;
  private volatile boolean stopping;

  private ParentDirectoryLoad(int threadCount, long seed) {
    this.windows = new CallWindows(threadCount, seed, System::nanoTime, "a client in the parent directory");
  }

  /** Connects {@code threadCount} clients and starts them working in {@code directory}, which must exist. */
  public static ParentDirectoryLoad start(URI uri, Configuration conf, Path directory, int threadCount, long seed)
      throws IOException {
    Preconditions.checkArgument(threadCount >= 1 && threadCount <= MixSettings.MAX_THREADS,
        "threads must be within [1, %s], got %s", MixSettings.MAX_THREADS, threadCount);
    ParentDirectoryLoad load = new ParentDirectoryLoad(threadCount, seed);
    try {
      for (int i = 0; i < threadCount; i++) {
        load.clients.add(FileSystem.newInstance(uri, conf));
      }
    } catch (IOException e) {
      load.close();
      throw e;
    }
    for (int i = 0; i < threadCount; i++) {
      int index = i;
      Thread thread = new Thread(() -> load.work(index, directory), "parent-directory-load-" + i);
      thread.setDaemon(true);
      load.threads.add(thread);
      thread.start();
    }
    return load;
  }

  /** Opens a window now; {@link CallWindows.Window#end()} closes it. */
  public CallWindows.Window startWindow() {
    return windows.startWindow();
  }

  private void work(int thread, Path directory) {
    FileSystem client = clients.get(thread);
    for (long sequence = 0; !stopping; sequence++) {
      Path file = new Path(directory, "w" + thread + "-" + sequence);
      if (call(thread, () -> client.create(file, false).close())) {
        call(thread, () -> client.getFileStatus(file));
        call(thread, () -> {
          if (!client.delete(file, false)) {
            throw new IOException("delete " + file + " returned false");
          }
        });
      }
    }
    windows.stopped(thread);
  }

  private interface Call {
    void run() throws IOException;
  }

  /** Runs and times one call; answers whether it succeeded. */
  private boolean call(int thread, Call call) {
    long start = windows.now();
    windows.starting(thread, start);
    String failure = null;
    try {
      call.run();
    } catch (IOException | RuntimeException e) {
      failure = e.toString();
    }
    windows.finished(start, windows.now(), failure);
    return failure == null;
  }

  /** Stops the threads (after their calls in flight, bounded) and closes the clients. */
  @Override
  public void close() throws IOException {
    stopping = true;
    CallWindows.joinThenClose(threads, clients);
  }
}

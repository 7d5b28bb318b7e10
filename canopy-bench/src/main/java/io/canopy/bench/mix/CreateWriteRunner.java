package io.canopy.bench.mix;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The small-file write path through the stock client: every thread, with a client and RPC connection of its own (as
 * {@link MixRunner}'s), repeats {@code fs.create(path)}, write {@value #FILE_BYTES} bytes, {@code close()} of a new
 * file, all threads in one directory of their own run (as the tasks of a job write into one output directory).
 * A file is one operation: create, addBlock, the datanode pipeline and complete; {@link FileLoop} times it.
 */
public final class CreateWriteRunner {
  /** Bytes written to every file. */
  public static final int FILE_BYTES = 4096;

  private final URI uri;
  private final Configuration configuration;
  private final FileLoop loop;
  private final long seed;

  public CreateWriteRunner(URI uri, Configuration configuration, int threads,
      Duration warmup, Duration duration, long seed) {
    this.uri = Objects.requireNonNull(uri, "uri");
    this.configuration = new Configuration(configuration);
    this.loop = new FileLoop("create + write", threads, warmup, duration, seed);
    this.seed = seed;
  }

  /** Writes files into {@code directory} (made first, untimed) and tells {@code interval} where the record starts. */
  public FileRunResult run(Path directory, PrintWriter progress, RecordedInterval interval) throws IOException {
    String userName = UserGroupInformation.getCurrentUser().getShortUserName();
    progress.printf(Locale.ROOT, "create + write %d bytes + close: %d threads into %s, %.1f s warm-up, %.1f s "
        + "recorded%n", FILE_BYTES, loop.threads(), directory, loop.warmup().toMillis() / 1000.0,
        loop.duration().toMillis() / 1000.0);
    progress.flush();
    List<FileSystem> clients = new ArrayList<>();
    try {
      for (int i = 0; i < loop.threads(); i++) {
        clients.add(MixRunner.newClient(uri, configuration, userName, true));
      }
      if (!clients.get(0).mkdirs(directory)) {
        throw new IOException("mkdirs(" + directory + ") returned false on " + uri);
      }
      byte[][] contents = new byte[loop.threads()][FILE_BYTES];
      for (int i = 0; i < contents.length; i++) {
        new Random(MixWorker.seedFor(seed, i, 1)).nextBytes(contents[i]);
      }
      return loop.run(clients, (client, thread, file) -> {
        try (FSDataOutputStream out = client.create(new Path(directory, "f-" + thread + "-" + file))) {
          out.write(contents[thread]);
        }
        return FileLoop.Check.NONE;
      }, interval);
    } finally {
      MixRunner.closeAll(clients, progress);
    }
  }
}

package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Small files written, then read back and checked, by one kind of client: every thread has a client and RPC
 * connection of its own (as {@link MixRunner}'s), kept for every run of this runner. A run at one size is a write
 * phase (create, write the file's bytes, close: new files in one directory of that run) and then a read phase over
 * the files the write phase closed (open, read to the end, close), each timed by {@link FileLoop}. Every file has
 * its own deterministic content (from the seed, the writing thread and its sequence number); every byte read is
 * compared with it after the clock stopped, and a file that differs in length or in one byte is a failed read.
 * The run's directory is deleted afterwards, untimed.
 */
public final class SmallFilesRunner implements AutoCloseable {
  /** Largest file size a run takes: the crossover curve ends at 1 MB. */
  public static final int MAX_FILE_BYTES = 1 << 20;
  /** Files remembered for the read phase over all threads (writes beyond are done but not read back). */
  private static final int MAX_REMEMBERED_FILES = 1_000_000;

  /** One file the write phase closed. */
  private record WrittenFile(int thread, long sequence) {
  }

  /** Both phases of one run. */
  public record Result(int fileBytes, FileRunResult write, FileRunResult read) {
    public long failures() {
      return write.totalFailures() + read.totalFailures();
    }
  }

  private final URI uri;
  private final List<FileSystem> clients;
  private final PrintWriter progress;

  private SmallFilesRunner(URI uri, List<FileSystem> clients, PrintWriter progress) {
    this.uri = uri;
    this.clients = clients;
    this.progress = progress;
  }

  /** Connects {@code threads} clients to {@code uri}, each as its own user object (its own RPC connection). */
  public static SmallFilesRunner connect(URI uri, Configuration configuration, int threads, PrintWriter progress)
      throws IOException {
    Preconditions.checkArgument(threads >= 1 && threads <= MixSettings.MAX_THREADS,
        "threads must be within [1, %s], got %s", MixSettings.MAX_THREADS, threads);
    String userName = UserGroupInformation.getCurrentUser().getShortUserName();
    List<FileSystem> clients = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        clients.add(MixRunner.newClient(uri, new Configuration(configuration), userName, true));
      }
    } catch (IOException | RuntimeException e) {
      MixRunner.closeAll(clients, progress);
      throw e;
    }
    return new SmallFilesRunner(uri, List.copyOf(clients), progress);
  }

  /** The FileSystem class the clients are (the stock one, or Canopy's). */
  public String clientClass() {
    return clients.get(0).getClass().getName();
  }

  /**
   * Writes files of {@code fileBytes} bytes into {@code directory} (made first, untimed), reads them back, deletes
   * the directory. Each phase has its own warm-up and recorded part and tells its interval.
   */
  public Result run(Path directory, int fileBytes, Duration warmup, Duration duration, long seed,
      RecordedInterval writeInterval, RecordedInterval readInterval) throws IOException {
    return run(directory, fileBytes, warmup, duration, seed, writeInterval, readInterval, this);
  }

  /**
   * As {@link #run(Path, int, Duration, Duration, long, RecordedInterval, RecordedInterval)}, with the files written
   * by {@code writers}' clients (another kind of client, with as many threads) and read by this runner's: e.g. a stock
   * client reading the files Canopy's client stored in the database.
   */
  public Result run(Path directory, int fileBytes, Duration warmup, Duration duration, long seed,
      RecordedInterval writeInterval, RecordedInterval readInterval, SmallFilesRunner writers) throws IOException {
    Preconditions.checkArgument(writers.clients.size() == clients.size(),
        "the writers have %s threads, the readers %s", writers.clients.size(), clients.size());
    Preconditions.checkArgument(fileBytes >= 1 && fileBytes <= MAX_FILE_BYTES,
        "file size must be within [1, %s] bytes, got %s", MAX_FILE_BYTES, fileBytes);
    int threads = clients.size();
    progress.printf(Locale.ROOT, "small files of %d bytes: %d threads into %s on %s, %.1f s warm-up, %.1f s "
        + "recorded per phase%n", fileBytes, threads, directory, uri, warmup.toMillis() / 1000.0,
        duration.toMillis() / 1000.0);
    progress.flush();
    if (!clients.get(0).mkdirs(directory)) {
      throw new IOException("mkdirs(" + directory + ") returned false on " + uri);
    }
    Result result;
    try {
      result = phases(directory, fileBytes, warmup, duration, seed, writeInterval, readInterval, writers.clients);
    } catch (IOException | RuntimeException e) {
      try {
        clients.get(0).delete(directory, true);
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup); // the run's own failure is the one to report
      }
      throw e;
    }
    clients.get(0).delete(directory, true); // untimed; keeps the namespace of later runs as it was
    return result;
  }

  private Result phases(Path directory, int fileBytes, Duration warmup, Duration duration, long seed,
      RecordedInterval writeInterval, RecordedInterval readInterval, List<FileSystem> writerClients)
      throws IOException {
    int threads = clients.size();
    List<List<WrittenFile>> written = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      written.add(new ArrayList<>());
    }
    FileRunResult write = new FileLoop("small-file write", threads, warmup, duration, seed)
        .run(writerClients, writer(directory, fileBytes, seed, written), writeInterval);
    List<WrittenFile> files = new ArrayList<>();
    written.forEach(files::addAll);
    FileRunResult read = files.isEmpty()
        ? FileRunResult.notRun(threads, "no file of " + fileBytes + " bytes was written into " + directory
            + ": nothing to read")
        : new FileLoop("small-file read", threads, warmup, duration, seed + 1)
            .run(clients, reader(directory, fileBytes, seed, files), readInterval);
    return new Result(fileBytes, write, read);
  }

  private FileLoop.FileOperation writer(Path directory, int fileBytes, long seed, List<List<WrittenFile>> written) {
    byte[][] contents = new byte[clients.size()][fileBytes];
    int rememberedPerThread = Math.max(1, MAX_REMEMBERED_FILES / clients.size());
    return (client, thread, sequence) -> {
      fillContent(contents[thread], seed, thread, sequence);
      try (FSDataOutputStream out = client.create(path(directory, thread, sequence))) {
        out.write(contents[thread]);
      }
      List<WrittenFile> mine = written.get(thread); // only this thread adds to its own list
      if (mine.size() < rememberedPerThread) {
        mine.add(new WrittenFile(thread, sequence));
      }
      return FileLoop.Check.NONE;
    };
  }

  private FileLoop.FileOperation reader(Path directory, int fileBytes, long seed, List<WrittenFile> files) {
    // one byte more than the file: a longer file then fills the buffer and shows as a wrong length
    byte[][] buffers = new byte[clients.size()][fileBytes + 1];
    byte[][] expected = new byte[clients.size()][fileBytes];
    int stride = Math.max(1, files.size() / clients.size());
    return (client, thread, sequence) -> {
      WrittenFile file = files.get((int) ((thread * (long) stride + sequence) % files.size()));
      Path path = path(directory, file.thread(), file.sequence());
      byte[] buffer = buffers[thread];
      int length = 0;
      try (FSDataInputStream in = client.open(path)) {
        for (int n; length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
          length += n;
        }
      }
      int read = length;
      return () -> {
        fillContent(expected[thread], seed, file.thread(), file.sequence());
        checkContent(path, buffer, read, expected[thread]);
      };
    };
  }

  /** Thread {@code thread}'s {@code sequence}-th file's bytes, filling {@code content}. */
  static void fillContent(byte[] content, long seed, int thread, long sequence) {
    new SplittableRandom(MixWorker.seedFor(seed + sequence * 0x632BE59BD9B4E019L, thread, 3)).nextBytes(content);
  }

  /** Throws naming the path and the first difference unless the first {@code length} bytes are {@code expected}. */
  static void checkContent(Path path, byte[] read, int length, byte[] expected) throws IOException {
    if (length != expected.length) {
      String got = length > expected.length ? "more than " + expected.length : Integer.toString(length);
      throw new IOException("content mismatch: " + path + " read " + got + " bytes, " + expected.length
          + " were written");
    }
    int first = Arrays.mismatch(read, 0, length, expected, 0, length);
    if (first >= 0) {
      throw new IOException("content mismatch: " + path + " byte " + first + " read " + read[first] + ", written "
          + expected[first]);
    }
  }

  static Path path(Path directory, int thread, long sequence) {
    return new Path(directory, "f-" + thread + "-" + sequence);
  }

  @Override
  public void close() {
    MixRunner.closeAll(clients, progress);
  }
}

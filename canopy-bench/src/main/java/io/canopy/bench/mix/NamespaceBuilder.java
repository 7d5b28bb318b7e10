package io.canopy.bench.mix;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Builds the mix's namespace ({@link NamespaceShape}) under a base directory with a bounded pool of threads, or
 * finds a complete one a previous run left there.
 *
 * <p>Directories are {@code d0, d1, ...}, files {@code f0, f1, ...}. Directories are made level by level (each
 * level in parallel, after its parents exist); then all files in parallel. File i's size (0..maxFileBytes) and bytes
 * come from a {@link Random} seeded by the seed and i, so a seed gives the same namespace on every system whatever
 * the thread interleaving. When everything exists a marker file ({@value #MARKER_NAME}) is written in the base
 * directory naming the shape and the seed; a later run with the same shape and seed lists the tree instead of
 * building it (runs change the tree: creates, deletes, renames and mkdirs, so listing is the truth). A base directory
 * that exists without the marker, or with a marker for another shape or seed, is an error: it is never deleted
 * behind the user's back.
 */
public final class NamespaceBuilder {
  /** Written last into the base directory; excluded from the working set. */
  public static final String MARKER_NAME = "_canopy-mix-namespace";
  /** Files between two progress lines. */
  public static final int PROGRESS_EVERY_FILES = 1000;
  private static final int WRITE_BUFFER_BYTES = 4096;

  private final FileSystem fileSystem;
  private final NamespaceShape shape;
  private final long seed;
  private final int threads;
  private final PrintWriter progress;

  /** {@code progress} receives a line every {@value #PROGRESS_EVERY_FILES} files and one at the end. */
  public NamespaceBuilder(FileSystem fileSystem, NamespaceShape shape, long seed, int threads, PrintWriter progress) {
    this.fileSystem = Objects.requireNonNull(fileSystem, "fileSystem");
    this.shape = Objects.requireNonNull(shape, "shape");
    this.seed = seed;
    if (threads < 1) {
      throw new IllegalArgumentException("builder threads must be at least 1, got " + threads);
    }
    this.threads = threads;
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /** Builds the namespace under {@code base}, or lists the complete one already there. */
  public MixNamespace buildOrLoad(Path base) throws IOException {
    Path qualified = fileSystem.makeQualified(base);
    Path marker = new Path(qualified, MARKER_NAME);
    if (fileSystem.exists(marker)) {
      String found = readMarker(marker);
      if (!found.equals(markerText())) {
        throw new IOException(qualified + " holds a mix namespace of another shape or seed (" + found.strip()
            + "; wanted " + markerText().strip() + "). Delete it (hadoop fs -rm -r " + base
            + ") or choose another base directory.");
      }
      return load(qualified);
    }
    return build(qualified);
  }

  /** Builds the namespace under {@code base}, which must not exist or be an empty directory. */
  public MixNamespace build(Path base) throws IOException {
    long start = System.nanoTime();
    Path qualified = fileSystem.makeQualified(base);
    requireEmptyOrMissing(qualified);
    if (!fileSystem.mkdirs(qualified)) {
      throw new IOException("mkdirs " + qualified + " returned false");
    }
    progress.println("namespace: building " + shape.describe() + " under " + qualified + " with " + threads
        + " threads");
    progress.flush();
    List<List<Path>> levels = directoryLevels(qualified);
    List<Path> directories = new ArrayList<>();
    levels.forEach(directories::addAll);
    try (IndexPool pool = new IndexPool(threads, "mix-namespace")) {
      for (int level = 1; level < levels.size(); level++) {
        List<Path> onLevel = levels.get(level);
        pool.forEachIndex(onLevel.size(), index -> {
          Path directory = onLevel.get(index);
          try {
            if (!fileSystem.mkdirs(directory)) {
              throw new IOException("mkdirs returned false");
            }
          } catch (IOException e) {
            throw new IOException("namespace: mkdirs " + directory + " failed: " + e, e);
          }
        });
      }
      List<Path> files = filePaths(directories);
      AtomicLong written = new AtomicLong();
      short replication = shape.replication() > 0 ? shape.replication()
          : fileSystem.getDefaultReplication(qualified);
      long blockSize = fileSystem.getDefaultBlockSize(qualified);
      pool.forEachIndex(files.size(), index -> {
        writeFile(files.get(index), index, replication, blockSize);
        long done = written.incrementAndGet();
        if (done % PROGRESS_EVERY_FILES == 0) {
          progress.println(String.format(Locale.ROOT, "namespace: %d/%d files (%.1f s)", done, files.size(),
              seconds(start)));
          progress.flush();
        }
      });
      writeMarker(new Path(qualified, MARKER_NAME));
      double seconds = seconds(start);
      progress.println(String.format(Locale.ROOT, "namespace: built %d directories and %d files in %.1f s",
          directories.size(), files.size(), seconds));
      progress.flush();
      return new MixNamespace(qualified, sorted(directories), sorted(files), true, seconds);
    }
  }

  /** Lists the tree under {@code base} level by level (in parallel): every directory and file but the marker. */
  public MixNamespace load(Path base) throws IOException {
    long start = System.nanoTime();
    Path qualified = fileSystem.makeQualified(base);
    List<Path> directories = new ArrayList<>();
    List<Path> files = Collections.synchronizedList(new ArrayList<>());
    try (IndexPool pool = new IndexPool(threads, "mix-namespace")) {
      List<Path> level = List.of(qualified);
      while (!level.isEmpty()) {
        directories.addAll(level);
        List<Path> current = level;
        List<Path> next = Collections.synchronizedList(new ArrayList<>());
        pool.forEachIndex(current.size(), index -> {
          for (FileStatus status : fileSystem.listStatus(current.get(index))) {
            if (status.isDirectory()) {
              next.add(status.getPath());
            } else if (!status.getPath().getName().equals(MARKER_NAME)) {
              files.add(status.getPath());
            }
          }
        });
        level = new ArrayList<>(next);
      }
    }
    double seconds = seconds(start);
    progress.println(String.format(Locale.ROOT, "namespace: found %d directories and %d files under %s in %.1f s",
        directories.size(), files.size(), qualified, seconds));
    progress.flush();
    return new MixNamespace(qualified, sorted(directories), sorted(files), false, seconds);
  }

  /** What the marker holds: the shape and the seed, one line each. */
  String markerText() {
    return "shape " + shape.describe() + "\nseed " + seed + "\n";
  }

  /** Level 0 is the base; child i of a directory is {@code d<i>}. */
  private List<List<Path>> directoryLevels(Path base) {
    List<List<Path>> levels = new ArrayList<>();
    levels.add(List.of(base));
    for (int level = 1; level <= shape.depth(); level++) {
      List<Path> parents = levels.get(level - 1);
      List<Path> children = new ArrayList<>(parents.size() * shape.subdirectoriesPerDirectory());
      for (Path parent : parents) {
        for (int child = 0; child < shape.subdirectoriesPerDirectory(); child++) {
          children.add(new Path(parent, "d" + child));
        }
      }
      levels.add(children);
    }
    return levels;
  }

  private List<Path> filePaths(List<Path> directories) {
    List<Path> files = new ArrayList<>(directories.size() * shape.filesPerDirectory());
    for (Path directory : directories) {
      for (int file = 0; file < shape.filesPerDirectory(); file++) {
        files.add(new Path(directory, "f" + file));
      }
    }
    return files;
  }

  private void writeFile(Path file, int index, short replication, long blockSize) throws IOException {
    // Seeded per file, not per thread: the namespace must not depend on which thread wrote what.
    Random random = new Random(seed * 0x9E3779B97F4A7C15L + index);
    byte[] content = new byte[random.nextInt(shape.maxFileBytes() + 1)];
    random.nextBytes(content);
    try (FSDataOutputStream out = fileSystem.create(file, false, WRITE_BUFFER_BYTES, replication, blockSize)) {
      out.write(content);
    } catch (IOException e) {
      throw new IOException("namespace: writing " + file + " (" + content.length + " bytes, replication "
          + replication + ") failed: " + e, e);
    }
  }

  private void writeMarker(Path marker) throws IOException {
    try (OutputStream out = fileSystem.create(marker, true)) {
      out.write(markerText().getBytes(StandardCharsets.UTF_8));
    }
  }

  private String readMarker(Path marker) throws IOException {
    try (InputStream in = fileSystem.open(marker)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private void requireEmptyOrMissing(Path base) throws IOException {
    FileStatus[] children;
    try {
      children = fileSystem.listStatus(base);
    } catch (FileNotFoundException missing) {
      return;
    }
    if (children.length > 0 || !fileSystem.getFileStatus(base).isDirectory()) {
      throw new IOException(base + " exists and holds no complete mix namespace (no " + MARKER_NAME
          + "; perhaps an interrupted build). Delete it (hadoop fs -rm -r " + base.toUri().getPath()
          + ") or choose another base directory.");
    }
  }

  private static List<Path> sorted(List<Path> paths) {
    List<Path> copy = new ArrayList<>(paths);
    Collections.sort(copy);
    return copy;
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}

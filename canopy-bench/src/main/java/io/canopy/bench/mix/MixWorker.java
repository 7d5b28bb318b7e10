package io.canopy.bench.mix;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * One client thread of the mix: draws operations from the mix with its own seeded {@link Random} and runs them
 * through its own {@link FileSystem}. Only the file-system calls are timed (picking a path, taking an entry lock and
 * updating the working set are not).
 *
 * <p>Semantics per operation (every new name embeds the run id, the thread and a counter, so it is unique across
 * threads and runs):
 * <ul>
 * <li>read file: open, read to the end in 8 KB reads, close, of a random file.
 * <li>stat file / stat dir: getFileStatus of a random file / directory.
 * <li>ls dir / ls file: listStatus of a random directory / file.
 * <li>create file: create(overwrite=false) {@code c-RUN-THREAD-N} in a random directory with the shape's
 *     replication and the default block size, write 0..maxFileBytes random bytes, close; the file joins the
 *     working set and the queue of created files.
 * <li>delete file: delete(recursive=false) of the oldest file this run created and has not deleted, else of a
 *     random file; the file leaves the working set. False (nothing deleted) is a failure.
 * <li>rename file: rename a random file to {@code r-RUN-THREAD-N} in the same directory. False is a failure.
 * <li>chown dir: setOwner(random directory, current user, configured group).
 * <li>set replication: setReplication(random file, 1, 2, 3, 1, ...) cycling per thread (from
 *     {@link MixSettings#lowestSetReplication}). False is a failure.
 * <li>chmod file / chmod dir: setPermission alternating 0644/0640 for files, 0755/0750 for directories, so the
 *     owner keeps full access.
 * <li>mkdir: mkdirs {@code m-RUN-THREAD-N} under a random directory; it joins the directory working set.
 * </ul>
 * Directories are never removed or renamed, so directory operations need no lock; file operations take the entry's
 * shared lock, rename and delete its exclusive lock (see {@link PathEntry}).
 */
final class MixWorker implements Runnable {
  private static final int READ_BUFFER_BYTES = 8192;
  private static final int WRITE_BUFFER_BYTES = 4096;
  /** Picks before giving up on finding a live, lockable file (only when files vanish faster than they appear). */
  private static final int MAX_PICK_ATTEMPTS = 10_000;
  private static final FsPermission FILE_PERMISSION_A = new FsPermission((short) 0644);
  private static final FsPermission FILE_PERMISSION_B = new FsPermission((short) 0640);
  private static final FsPermission DIRECTORY_PERMISSION_A = new FsPermission((short) 0755);
  private static final FsPermission DIRECTORY_PERMISSION_B = new FsPermission((short) 0750);

  private final int index;
  private final FileSystem fileSystem;
  private final MixState state;
  private final Random random;
  private final Map<MixOperation, LatencySamples> latencies = new EnumMap<>(MixOperation.class);
  private final long[] recordedFailures = new long[MixOperation.values().length];
  private final long[] warmupFailures = new long[MixOperation.values().length];
  private final byte[] readBuffer = new byte[READ_BUFFER_BYTES];
  /** Told of every call, for a load measured in windows ({@link MixLoad}); null when the runner measures. */
  private final CallWindows windows;
  private final short createReplication;
  private final long blockSize;
  private long warmupOperations;
  private long nameCounter;
  private int replicationCycle;
  private boolean chmodFileToggle;
  private boolean chmodDirectoryToggle;
  /** nanoClock time when this thread's last recorded operation ended. */
  private long lastRecordedEndNanos;
  private volatile MixOperation current;
  private volatile Throwable crash;

  MixWorker(int index, FileSystem fileSystem, MixState state, long seed, int latencySampleCapacity) {
    this(index, fileSystem, state, seed, latencySampleCapacity, null);
  }

  /** As above, also telling {@code windows} (when not null) when each operation's call started and ended. */
  MixWorker(int index, FileSystem fileSystem, MixState state, long seed, int latencySampleCapacity,
      CallWindows windows) {
    this.index = index;
    this.windows = windows;
    this.fileSystem = fileSystem;
    this.state = state;
    this.random = new Random(seedFor(seed, index, 1));
    for (MixOperation operation : MixOperation.values()) {
      latencies.put(operation, new LatencySamples(latencySampleCapacity,
          new Random(seedFor(seed, index, 2 + operation.ordinal()))));
    }
    Path root = new Path("/");
    this.createReplication = state.replication > 0 ? state.replication : fileSystem.getDefaultReplication(root);
    this.blockSize = fileSystem.getDefaultBlockSize(root);
  }

  /** A distinct, well-mixed seed per thread and purpose derived from the run's seed (SplitMix64 finaliser). */
  static long seedFor(long seed, int thread, int purpose) {
    long z = seed + 0x9E3779B97F4A7C15L * (1 + thread * 64L + purpose);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  @Override
  public void run() {
    try {
      while (true) {
        long now = state.nanoClock.getAsLong();
        boolean recording = !state.warmingUp(now);
        if (recording && !state.claimRecordedOperation(now)) {
          return;
        }
        MixOperation operation = state.mix.sample(random);
        current = operation;
        execute(operation, recording);
      }
    } catch (Throwable unexpected) {
      crash = unexpected;
    } finally {
      current = null;
    }
  }

  private void execute(MixOperation operation, boolean recording) {
    long began = now();
    if (windows != null) {
      windows.starting(index, began);
    }
    long latency;
    try {
      latency = switch (operation) {
        case READ_FILE -> readFile();
        case STAT_FILE -> statFile();
        case LS_DIR -> listDirectory();
        case STAT_DIR -> statDirectory();
        case CREATE_FILE -> createFile();
        case RENAME_FILE -> renameFile();
        case DELETE_FILE -> deleteFile();
        case LS_FILE -> listFile();
        case CHOWN_DIR -> chownDirectory();
        case SET_REPLICATION -> setReplication();
        case CHMOD_FILE -> chmodFile();
        case MKDIR -> mkdir();
        case CHMOD_DIR -> chmodDirectory();
      };
    } catch (IOException | RuntimeException e) {
      (recording ? recordedFailures : warmupFailures)[operation.ordinal()]++;
      String failure = "thread " + index + ": " + operation.label() + ": " + e;
      state.reportFailure((recording ? "" : "(warm-up) ") + failure);
      if (windows != null) {
        windows.finished(began, now(), failure);
      }
      return;
    }
    if (windows != null) {
      long end = now();
      windows.finished(end - latency, end, null); // the call alone, as the runner times it
    }
    if (recording) {
      latencies.get(operation).record(latency);
      lastRecordedEndNanos = state.nanoClock.getAsLong();
      state.recordedOperations.increment();
    } else {
      warmupOperations++;
    }
  }

  // Each operation returns the nanoseconds its file-system calls took, or throws (a failure).

  private long readFile() throws IOException {
    PathEntry entry = lockSharedFile();
    try {
      long start = now();
      try (FSDataInputStream in = fileSystem.open(entry.path())) {
        while (in.read(readBuffer) >= 0) {
          // Reading to the end is the operation; the bytes are not needed.
        }
      }
      return now() - start;
    } finally {
      entry.unlockShared();
    }
  }

  private long statFile() throws IOException {
    PathEntry entry = lockSharedFile();
    try {
      long start = now();
      fileSystem.getFileStatus(entry.path());
      return now() - start;
    } finally {
      entry.unlockShared();
    }
  }

  private long listFile() throws IOException {
    PathEntry entry = lockSharedFile();
    try {
      long start = now();
      fileSystem.listStatus(entry.path());
      return now() - start;
    } finally {
      entry.unlockShared();
    }
  }

  private long setReplication() throws IOException {
    PathEntry entry = lockSharedFile();
    try {
      short replication = (short) (state.lowestSetReplication + replicationCycle);
      replicationCycle = (replicationCycle + 1)
          % (MixSettings.HIGHEST_SET_REPLICATION - state.lowestSetReplication + 1);
      long start = now();
      boolean changed = fileSystem.setReplication(entry.path(), replication);
      long latency = now() - start;
      if (!changed) {
        throw new IOException("setReplication(" + entry.path() + ", " + replication + ") returned false");
      }
      return latency;
    } finally {
      entry.unlockShared();
    }
  }

  private long chmodFile() throws IOException {
    PathEntry entry = lockSharedFile();
    try {
      chmodFileToggle = !chmodFileToggle;
      FsPermission permission = chmodFileToggle ? FILE_PERMISSION_B : FILE_PERMISSION_A;
      long start = now();
      fileSystem.setPermission(entry.path(), permission);
      return now() - start;
    } finally {
      entry.unlockShared();
    }
  }

  private long listDirectory() throws IOException {
    Path directory = pickDirectory();
    long start = now();
    fileSystem.listStatus(directory);
    return now() - start;
  }

  private long statDirectory() throws IOException {
    Path directory = pickDirectory();
    long start = now();
    fileSystem.getFileStatus(directory);
    return now() - start;
  }

  private long chownDirectory() throws IOException {
    Path directory = pickDirectory();
    long start = now();
    fileSystem.setOwner(directory, state.userName, state.group);
    return now() - start;
  }

  private long chmodDirectory() throws IOException {
    Path directory = pickDirectory();
    chmodDirectoryToggle = !chmodDirectoryToggle;
    FsPermission permission = chmodDirectoryToggle ? DIRECTORY_PERMISSION_B : DIRECTORY_PERMISSION_A;
    long start = now();
    fileSystem.setPermission(directory, permission);
    return now() - start;
  }

  private long mkdir() throws IOException {
    Path directory = new Path(pickDirectory(), newName("m"));
    long start = now();
    boolean made = fileSystem.mkdirs(directory);
    long latency = now() - start;
    if (!made) {
      throw new IOException("mkdirs(" + directory + ") returned false");
    }
    state.directories.add(new PathEntry(directory, true));
    return latency;
  }

  private long createFile() throws IOException {
    Path file = new Path(pickDirectory(), newName("c"));
    byte[] content = new byte[random.nextInt(state.maxFileBytes + 1)];
    random.nextBytes(content);
    long start = now();
    try (FSDataOutputStream out = fileSystem.create(file, false, WRITE_BUFFER_BYTES, createReplication,
        blockSize)) {
      out.write(content);
    }
    long latency = now() - start;
    PathEntry entry = new PathEntry(file, true);
    state.files.add(entry);
    state.createdFiles.add(entry);
    return latency;
  }

  private long renameFile() throws IOException {
    PathEntry entry = lockExclusiveFile(state.files);
    try {
      Path source = entry.path();
      Path target = new Path(source.getParent(), newName("r"));
      long start = now();
      boolean renamed = fileSystem.rename(source, target);
      long latency = now() - start;
      if (!renamed) {
        throw new IOException("rename(" + source + ", " + target + ") returned false");
      }
      entry.moveTo(target);
      return latency;
    } finally {
      entry.unlockExclusive();
    }
  }

  private long deleteFile() throws IOException {
    PathEntry entry = pollCreatedFile();
    if (entry == null) {
      entry = lockExclusiveFile(state.files);
    }
    try {
      Path file = entry.path();
      long start = now();
      boolean deleted = fileSystem.delete(file, false);
      long latency = now() - start;
      // Gone either way: false means it did not exist, and keeping it would fail later operations too.
      state.files.remove(entry);
      if (!deleted) {
        throw new IOException("delete(" + file + ", false) returned false");
      }
      return latency;
    } finally {
      entry.unlockExclusive();
    }
  }

  /** The oldest created file still live, exclusively locked; null if there is none. */
  private PathEntry pollCreatedFile() {
    PathEntry entry;
    while ((entry = state.createdFiles.poll()) != null) {
      if (entry.lockExclusive()) {
        return entry;
      }
    }
    return null;
  }

  private PathEntry lockSharedFile() throws IOException {
    for (int attempt = 0; attempt < MAX_PICK_ATTEMPTS; attempt++) {
      PathEntry entry = pick(state.files);
      if (entry.lockShared()) {
        return entry;
      }
    }
    throw new IOException("no live file found in " + MAX_PICK_ATTEMPTS + " picks");
  }

  private PathEntry lockExclusiveFile(WorkingSet set) throws IOException {
    for (int attempt = 0; attempt < MAX_PICK_ATTEMPTS; attempt++) {
      PathEntry entry = pick(set);
      if (entry.lockExclusive()) {
        return entry;
      }
    }
    throw new IOException("no live file found in " + MAX_PICK_ATTEMPTS + " picks");
  }

  private Path pickDirectory() throws IOException {
    return pick(state.directories).path();
  }

  private PathEntry pick(WorkingSet set) throws IOException {
    PathEntry entry = set.pick(random);
    if (entry == null) {
      throw new IOException("the " + set.kind() + " working set is empty (deletes outpaced creates)");
    }
    return entry;
  }

  private String newName(String prefix) {
    return prefix + "-" + state.runId + "-" + index + "-" + (nameCounter++);
  }

  private long now() {
    return state.nanoClock.getAsLong();
  }

  // Read by the runner after join() (which orders these reads after the thread's writes).

  int index() {
    return index;
  }

  MixOperation current() {
    return current;
  }

  Throwable crash() {
    return crash;
  }

  LatencySamples latencies(MixOperation operation) {
    return latencies.get(operation);
  }

  long recordedFailures(MixOperation operation) {
    return recordedFailures[operation.ordinal()];
  }

  long warmupFailures(MixOperation operation) {
    return warmupFailures[operation.ordinal()];
  }

  long warmupOperations() {
    return warmupOperations;
  }

  long lastRecordedEndNanos() {
    return lastRecordedEndNanos;
  }
}

package io.canopy.bench.nemesis;

import io.canopy.bench.nemesis.FsOperation.Kind;
import io.canopy.bench.nemesis.FsOperation.Outcome;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * One client of the nemesis workload, on its own connection to the cluster (every namenode, with failover). Most of
 * its operations change files only it writes ({@link OwnFile}): each read checks that every acknowledged write is
 * there with its bytes intact; a file with an operation in doubt is set aside until the end, then checked against
 * every outcome the operations in doubt allow. The rest are namespace operations (mkdirs, create, rename, delete) in a directory it
 * shares with another client, recorded as a history for the linearizability checker; the shared directory changes
 * with the epoch, so each history stays short. Runs until stopped; each operation is bounded by the client's own
 * retry settings.
 */
final class NemesisClient implements Runnable {
  /** Files each client owns. */
  static final int OWN_FILES = 4;
  /** Names in a shared directory. */
  private static final String[] SHARED_NAMES = {"a", "b", "c"};
  /** Bytes of payload of most writes; one write in ten is large enough to need the datanodes. */
  private static final int SMALL_PAYLOAD = 700;
  private static final int LARGE_PAYLOAD = 300_000;

  /** One finished operation's latency, and when it ended (to tell operations during faults). */
  record Latency(long endNanos, long nanos) {
  }

  private final int index;
  private final DistributedFileSystem fs;
  private final Random random;
  private final LongSupplier nanos;
  private final IntSupplier epoch;
  private final AtomicLong tokens;
  private final List<OwnFile> own = new ArrayList<>();
  /** Files with an operation in doubt, left untouched until the final check. */
  private final List<OwnFile> retired = new ArrayList<>();
  private final AtomicLong generation = new AtomicLong();
  private final List<FsOperation> shared = Collections.synchronizedList(new ArrayList<>());
  private final List<Latency> latencies = Collections.synchronizedList(new ArrayList<>());
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong unknown = new AtomicLong();
  private volatile boolean stopping;

  /**
   * @param index this client's number: its own files are under {@code /own/c<index>}, and it shares
   *     {@code /e<epoch>s<index / 2>} with the client of the neighbouring number
   * @param tokens where write tokens come from (unique across clients)
   */
  NemesisClient(int index, DistributedFileSystem fs, Random random, LongSupplier nanos, IntSupplier epoch,
      AtomicLong tokens) {
    this.index = index;
    this.fs = fs;
    this.random = random;
    this.nanos = nanos;
    this.epoch = epoch;
    this.tokens = tokens;
    for (int i = 0; i < OWN_FILES; i++) {
      own.add(new OwnFile("/own/c" + index + "/f" + i));
    }
  }

  void stop() {
    stopping = true;
  }

  @Override
  public void run() {
    while (!stopping) {
      long start = nanos.getAsLong();
      if (random.nextInt(10) < 6) {
        ownStep(random.nextInt(own.size()));
      } else {
        sharedStep();
      }
      long end = nanos.getAsLong();
      latencies.add(new Latency(end, end - start));
    }
  }

  // ---- own files ----

  private void ownStep(int slot) {
    OwnFile file = own.get(slot);
    long token = tokens.incrementAndGet();
    if (!file.exists()) {
      ownWrite(slot, Kind.CREATE, token);
      return;
    }
    switch (random.nextInt(4)) {
      case 0, 1 -> ownWrite(slot, Kind.APPEND, token);
      case 2 -> readAndCheck(file);
      default -> ownDelete(slot);
    }
  }

  /**
   * The file of {@code slot} had an operation whose outcome this client never learned: it is set aside untouched
   * until the end (a namenode that was paused may still carry the call out later), checked then once it is closed,
   * and the slot goes on with a new file.
   */
  private void retire(int slot, FsOperation.Kind kind, long token) {
    OwnFile file = own.get(slot);
    file.unknown(kind, token);
    retired.add(file);
    own.set(slot, new OwnFile(file.path().replaceFirst("\\.g\\d+$", "") + ".g" + generation.incrementAndGet()));
  }

  private void ownWrite(int slot, Kind kind, long token) {
    OwnFile file = own.get(slot);
    byte[] record = Records.encode(token, random.nextInt(10) == 0 ? LARGE_PAYLOAD : SMALL_PAYLOAD);
    Path path = new Path(file.path());
    boolean opened = false;
    try {
      try (FSDataOutputStream out = kind == Kind.CREATE ? fs.create(path, false) : fs.append(path)) {
        opened = true;
        out.write(record);
      }
      file.acknowledged(kind, token);
      acknowledged.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      if (!opened && kind == Kind.APPEND && busy(e)) {
        // the file is still held by an earlier write of this client that never completed: close it, nothing changed
        recoverLease(path);
      } else if (!opened && kind == Kind.CREATE && e instanceof FileAlreadyExistsException) {
        violations.add(file.path() + ": create refused (the file exists) though this client alone writes it and "
            + "knew it absent: " + e.getMessage());
        retire(slot, kind, token);
      } else if (!opened && kind == Kind.APPEND && e instanceof FileNotFoundException) {
        violations.add(file.path() + ": append refused (no such file) though it was acknowledged: " + e.getMessage());
        retire(slot, kind, token);
      } else {
        unknown.incrementAndGet();
        recoverLease(path);
        retire(slot, kind, token);
      }
    }
  }

  private void ownDelete(int slot) {
    OwnFile file = own.get(slot);
    try {
      if (fs.delete(new Path(file.path()), false)) {
        file.acknowledged(Kind.DELETE, 0);
        acknowledged.incrementAndGet();
      } else {
        violations.add(file.path() + ": delete answered false (no such file) though its create was acknowledged");
        retire(slot, Kind.DELETE, 0);
      }
    } catch (IOException | RuntimeException e) {
      unknown.incrementAndGet();
      retire(slot, Kind.DELETE, 0);
    }
  }

  /** Reads the file and checks it against what this client knows; a read that fails leaves it for later. */
  boolean readAndCheck(OwnFile file) {
    Records.Decoded found;
    try {
      found = read(new Path(file.path()));
    } catch (IOException | RuntimeException e) {
      recoverLease(new Path(file.path()));
      return false;
    }
    file.read(found).ifPresent(violations::add);
    return true;
  }

  /** The file's records, read to its end; null when there is no such file. */
  private Records.Decoded read(Path path) throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      return Records.decode(in.readAllBytes());
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  private void recoverLease(Path path) {
    try {
      fs.recoverLease(path);
    } catch (IOException | RuntimeException e) {
      // the next step on this file tries again
    }
  }

  private static boolean busy(Exception e) {
    Exception unwrapped = e instanceof RemoteException remote
        ? remote.unwrapRemoteException(AlreadyBeingCreatedException.class, RecoveryInProgressException.class) : e;
    return unwrapped instanceof AlreadyBeingCreatedException || unwrapped instanceof RecoveryInProgressException;
  }

  /**
   * After the faults: checks every own file until each has been read (each attempt after the cluster healed;
   * {@code attempts} bounds them); the files that could not be read are violations too.
   */
  void finalCheck(int attempts) throws InterruptedException {
    List<OwnFile> all = new ArrayList<>(own);
    all.addAll(retired);
    for (OwnFile file : all) {
      boolean read = false;
      for (int attempt = 0; attempt < attempts && !read; attempt++) {
        read = closed(new Path(file.path())) && readAndCheck(file);
        if (!read) {
          Thread.sleep(1_000);
        }
      }
      if (!read) {
        violations.add(file.path() + ": unreadable (or still open) after the cluster healed (" + attempts
            + " attempts)");
      }
    }
  }

  /** Whether the file is closed (its lease recovered, if a write of it never completed) or absent. */
  private boolean closed(Path path) {
    try {
      return fs.recoverLease(path);
    } catch (FileNotFoundException e) {
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  // ---- shared directories: the linearizability histories ----

  private void sharedStep() {
    String directory = "/e" + epoch.getAsInt() + "s" + (index / 2);
    String name = directory + "/" + SHARED_NAMES[random.nextInt(SHARED_NAMES.length)];
    long call = nanos.getAsLong();
    switch (random.nextInt(4)) {
      case 0 -> record(Kind.MKDIRS, name, null, 0, call, () -> fs.mkdirs(new Path(name)));
      case 1 -> {
        long token = tokens.incrementAndGet();
        record(Kind.CREATE, name, null, token, call, () -> {
          FSDataOutputStream out = fs.create(new Path(name), false);
          // the file exists from here on: what happens to the write (another client may delete the file under it,
          // and complete then says there is no such file) does not undo the create
          try {
            out.write(Records.encode(token, 16));
            out.close();
          } catch (IOException e) {
            recoverLease(new Path(name));
          }
          return true;
        });
      }
      case 2 -> record(Kind.DELETE, name, null, 0, call, () -> fs.delete(new Path(name), true));
      default -> {
        String target = directory + "/" + SHARED_NAMES[random.nextInt(SHARED_NAMES.length)];
        record(Kind.RENAME, name, target, 0, call, () -> fs.rename(new Path(name), new Path(target)));
      }
    }
  }

  private interface Call {
    boolean run() throws IOException;
  }

  private void record(Kind kind, String path, String target, long token, long call, Call operation) {
    Outcome outcome;
    try {
      outcome = operation.run() ? Outcome.OK : Outcome.FAILED;
    } catch (FileAlreadyExistsException | ParentNotDirectoryException | FileNotFoundException e) {
      outcome = Outcome.FAILED; // HDFS's refusals: nothing changed
    } catch (IOException | RuntimeException e) {
      outcome = Outcome.UNKNOWN;
      recoverLease(new Path(path));
    }
    long end = nanos.getAsLong();
    if (outcome == Outcome.UNKNOWN) {
      unknown.incrementAndGet();
      shared.add(new FsOperation(kind, path, target, token, call, Long.MAX_VALUE, outcome, null));
    } else {
      acknowledged.incrementAndGet();
      shared.add(new FsOperation(kind, path, target, token, call, end, outcome, null));
    }
  }

  List<FsOperation> sharedHistory() {
    synchronized (shared) {
      return new ArrayList<>(shared);
    }
  }

  List<Latency> latencies() {
    synchronized (latencies) {
      return new ArrayList<>(latencies);
    }
  }

  List<String> violations() {
    synchronized (violations) {
      return new ArrayList<>(violations);
    }
  }

  long acknowledged() {
    return acknowledged.get();
  }

  long unknown() {
    return unknown.get();
  }
}

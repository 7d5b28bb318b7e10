package io.canopy.it.model;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Runs {@link Op}s through a stock {@link DistributedFileSystem} (Canopy's or Apache HDFS's namenode) under one
 * directory, and reports outcomes in the model's format. A write that fails (a quota) leaves its file open on the
 * namenode; the lease is recovered at once, so every step starts with all files closed, as the model assumes.
 */
public final class HadoopFsUnderTest implements FsUnderTest {
  /** How long a failed write's lease recovery may take before the run gives up. */
  private static final long RECOVERY_TIMEOUT_MS = 30_000;
  private static final int READ_BUFFER = 4096;

  private final List<DistributedFileSystem> clients;
  private final String root;
  private int steps;
  /** The client of the current step. */
  private DistributedFileSystem fs;

  /**
   * {@code root}: an existing, empty directory, the model's "/". Step i goes through client i modulo their number
   * (clients of different namenodes: each step may find another namenode's caches).
   */
  public HadoopFsUnderTest(List<DistributedFileSystem> clients, String root) {
    this.clients = List.copyOf(clients);
    this.root = root;
  }

  public String root() {
    return root;
  }

  private Path path(String relative) {
    return relative.equals("/") ? new Path(root) : new Path(root + relative);
  }

  @Override
  public Outcome apply(Op op) {
    fs = clients.get(steps++ % clients.size());
    try {
      return run(op);
    } catch (RemoteException e) {
      return Outcome.threw(e.getClassName(), e.getMessage());
    } catch (IOException | RuntimeException e) {
      return Outcome.threw(e.getClass().getName(), e.getMessage());
    }
  }

  private Outcome run(Op op) throws IOException {
    if (op instanceof Op.Mkdir m) {
      return Outcome.ok(Boolean.toString(fs.mkdirs(path(m.path()))));
    } else if (op instanceof Op.Create c) {
      return write(c.path(), fs.create(path(c.path()), c.overwrite()), c.size(), c.fill(), "created");
    } else if (op instanceof Op.Append a) {
      return write(a.path(), fs.append(path(a.path())), a.size(), a.fill(), "appended");
    } else if (op instanceof Op.Rename r) {
      return Outcome.ok(Boolean.toString(fs.rename(path(r.src()), path(r.dst()))));
    } else if (op instanceof Op.Rename2 r) {
      fs.rename(path(r.src()), path(r.dst()), r.overwrite() ? Options.Rename.OVERWRITE : Options.Rename.NONE);
      return Outcome.ok("renamed");
    } else if (op instanceof Op.Delete d) {
      return Outcome.ok(Boolean.toString(fs.delete(path(d.path()), d.recursive())));
    } else if (op instanceof Op.Chmod c) {
      fs.setPermission(path(c.path()), new FsPermission(c.mode()));
      return Outcome.ok("done");
    } else if (op instanceof Op.SetQuota q) {
      fs.setQuota(path(q.path()), q.namespace(), q.storagespace());
      return Outcome.ok("done");
    } else if (op instanceof Op.List l) {
      return list(l.path());
    } else if (op instanceof Op.Stat s) {
      return Outcome.ok(status(fs.getFileStatus(path(s.path()))));
    } else if (op instanceof Op.Count c) {
      ContentSummary summary = fs.getContentSummary(path(c.path()));
      return Outcome.ok(HdfsModel.contentSummary(summary.getLength(), summary.getFileCount(),
          summary.getDirectoryCount(), summary.getQuota(), summary.getSpaceConsumed(), summary.getSpaceQuota()));
    } else if (op instanceof Op.QuotaUsage q) {
      QuotaUsage usage = fs.getQuotaUsage(path(q.path()));
      return Outcome.ok(HdfsModel.quotaUsage(usage.getFileAndDirectoryCount(), usage.getQuota(),
          usage.getSpaceConsumed(), usage.getSpaceQuota()));
    } else if (op instanceof Op.Read r) {
      return read(r.path());
    } else if (op instanceof Op.Tree t) {
      List<String> entries = new ArrayList<>();
      tree(fs.getFileStatus(path(t.path())), t.path(), entries);
      return Outcome.ok(String.join("\n", entries));
    }
    throw new IllegalArgumentException("unknown operation " + op);
  }

  /** Writes and closes; a failure is the outcome, after the file's lease is recovered. */
  private Outcome write(String relative, FSDataOutputStream out, int size, int fill, String done) throws IOException {
    try {
      out.write(Op.data(size, fill));
      out.close();
      return Outcome.ok(done);
    } catch (RemoteException e) {
      recoverAfterFailedWrite(relative, out);
      return Outcome.threw(e.getClassName(), e.getMessage());
    } catch (IOException e) {
      recoverAfterFailedWrite(relative, out);
      return Outcome.threw(e.getClass().getName(), e.getMessage());
    }
  }

  private void recoverAfterFailedWrite(String relative, FSDataOutputStream out) throws IOException {
    IOUtils.closeStream(out);
    Path file = path(relative);
    long deadline = System.currentTimeMillis() + RECOVERY_TIMEOUT_MS;
    while (!fs.recoverLease(file)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("the lease of " + file + " was not recovered within " + RECOVERY_TIMEOUT_MS + " ms");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted recovering " + file);
      }
    }
  }

  private Outcome list(String relative) throws IOException {
    List<String> entries = new ArrayList<>();
    for (FileStatus status : fs.listStatus(path(relative))) {
      entries.add(status.getPath().getName() + " " + status(status));
    }
    return Outcome.ok(entries.toString());
  }

  private void tree(FileStatus status, String relative, List<String> entries) throws IOException {
    entries.add(relative + " " + status(status));
    if (status.isDirectory()) {
      for (FileStatus child : fs.listStatus(path(relative))) {
        tree(child, HdfsModel.join(relative, child.getPath().getName()), entries);
      }
    }
  }

  private Outcome read(String relative) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (FSDataInputStream in = fs.open(path(relative))) {
      IOUtils.copyBytes(in, bytes, READ_BUFFER, false);
    }
    return Outcome.ok(HdfsModel.contents(bytes.toByteArray(), bytes.size()));
  }

  private static String status(FileStatus status) {
    int children = status instanceof HdfsFileStatus hdfs ? hdfs.getChildrenNum() : -1;
    return HdfsModel.status(status.isDirectory(), status.getLen(), (short) (status.getPermission().toShort() & 01777),
        status.getReplication(), status.getBlockSize(), status.getOwner(), status.getGroup(),
        status.isDirectory() ? children : 0);
  }
}

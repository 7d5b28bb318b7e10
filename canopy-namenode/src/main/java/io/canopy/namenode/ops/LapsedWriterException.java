package io.canopy.namenode.ops;

import io.canopy.namenode.fs.FsPath;
import java.io.IOException;

/**
 * An append or a truncate finds its file open by another writer whose lease is past the soft limit. HDFS then
 * recovers that lease and, when the file could be closed at once, goes on with the call; Canopy recovers it in a
 * transaction of its own ({@link RecoverLeaseOp#forTakeover}) and then runs the call again. Nothing was written by
 * the operation that throws it.
 */
public final class LapsedWriterException extends IOException {
  private final FsPath path;
  private final LeaseTakeover.Purpose purpose;

  LapsedWriterException(FsPath path, String writer, LeaseTakeover.Purpose purpose) {
    super(purpose + " " + path + " finds it open by " + writer + ", past the lease soft limit");
    this.path = path;
    this.purpose = purpose;
  }

  public FsPath path() {
    return path;
  }

  public LeaseTakeover.Purpose purpose() {
    return purpose;
  }
}

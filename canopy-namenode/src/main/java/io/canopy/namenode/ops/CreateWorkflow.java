package io.canopy.namenode.ops;

import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.ClientCall;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;

/**
 * create as HDFS's startFile runs it, over as many transactions as it takes: a create that finds the file open by a
 * writer past the soft limit ({@link CreateOp.WriterPastSoftLimitException}) recovers that lease in a transaction of
 * its own and then fails as HDFS does; a file that vanished meanwhile makes the create run again, a bounded number
 * of times.
 */
public final class CreateWorkflow {
  /** A create that finds a file open past the soft limit which then vanishes is tried at most this often. */
  static final int MAX_ATTEMPTS = 3;

  private CreateWorkflow() {
  }

  /** Runs {@code create} (the client's {@code src}) as one client call, at most once. */
  public static HdfsFileStatus run(TransactionRunner runner, NamespaceServices services, String src, CreateOp create,
      ClientCall call) throws IOException {
    CreateOp.Request request = create.request();
    for (int attempt = 1; ; attempt++) {
      try {
        return runner.run(create, call);
      } catch (CreateOp.WriterPastSoftLimitException pastSoftLimit) {
        // HDFS's startFile: the open file's lease is recovered, then the create fails.
        RecoverLeaseOp recover = RecoverLeaseOp.forCreate(services, request.path(), request.holder(),
            request.clientMachine());
        ReleaseOutcome outcome = runner.run(recover);
        switch (outcome.kind()) {
          case CLOSED -> throw new FileAlreadyExistsException(src + " for client "
              + request.clientMachine() + " already exists");
          case RECOVERING, IN_PROGRESS -> throw new RecoveryInProgressException(recover.message(
              "lease recovery is in progress. Try again later."));
          case WAITING -> throw new AlreadyBeingCreatedException(outcome.detail());
          case NOT_OPEN -> {
            if (attempt >= MAX_ATTEMPTS) {
              throw new IOException("create of " + src + " for " + request.holder() + " raced "
                  + attempt + " times with the file being created and removed by others; try again", pastSoftLimit);
            }
          }
          default -> throw new IllegalStateException("unexpected lease release outcome " + outcome);
        }
      }
    }
  }
}

package io.canopy.namenode.ops;

import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;

/**
 * An append or a truncate over as many transactions as it takes: when it finds its file open by a writer past the
 * soft limit ({@link LapsedWriterException}), that lease is recovered in a transaction of its own and the call runs
 * again if the file could be closed at once (HDFS goes on with the call in that case); otherwise HDFS's answer:
 * recovery in progress, or committed blocks still waiting.
 */
public final class LapsedWriterWorkflow {
  /** An append or truncate that recovered a lapsed writer's file and finds it reopened by others tries this often. */
  static final int MAX_ATTEMPTS = 3;

  /** One run of the call, in its own transaction. */
  public interface Attempt<T> {
    T run() throws IOException;
  }

  private LapsedWriterWorkflow() {
  }

  /** Runs {@code attempt} for {@code holder} (on {@code clientMachine}), taking over a lapsed writer's file. */
  public static <T> T run(TransactionRunner runner, NamespaceServices services, String src, String holder,
      String clientMachine, Attempt<T> attempt) throws IOException {
    for (int count = 1; ; count++) {
      try {
        return attempt.run();
      } catch (LapsedWriterException lapsed) {
        RecoverLeaseOp recover = RecoverLeaseOp.forTakeover(services, lapsed, holder, clientMachine);
        ReleaseOutcome outcome = runner.run(recover);
        switch (outcome.kind()) {
          case CLOSED, NOT_OPEN -> {
            if (count >= MAX_ATTEMPTS) {
              throw new IOException(lapsed.purpose() + " of " + src + " for " + holder + " raced " + count
                  + " times with other writers reopening the file; try again", lapsed);
            }
          }
          case RECOVERING, IN_PROGRESS -> throw new RecoveryInProgressException(recover.message(
              "lease recovery is in progress. Try again later."));
          case WAITING -> throw new AlreadyBeingCreatedException(outcome.detail());
          default -> throw new IllegalStateException("unexpected lease release outcome " + outcome);
        }
      }
    }
  }
}

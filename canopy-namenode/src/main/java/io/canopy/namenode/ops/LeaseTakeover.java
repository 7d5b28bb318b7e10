package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Lease;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;

/**
 * HDFS's rules (recoverLeaseInternal) for a client that wants an open file another writer holds: a create without
 * overwrite, an append or a truncate may take it over only once the writer's lease is past the soft limit (and never
 * from itself); recoverLease always may. Refusals are HDFS's exceptions and messages, thrown before anything is
 * written.
 */
final class LeaseTakeover {
  /** The client call asking, named as HDFS names it in its messages. */
  public enum Purpose { CREATE_FILE, APPEND_FILE, TRUNCATE_FILE, RECOVER_LEASE }

  private LeaseTakeover() {
  }

  /**
   * Returns when {@code holder} may recover the exclusively locked open {@code file} now; otherwise throws
   * {@link AlreadyBeingCreatedException} or {@link RecoveryInProgressException} as HDFS does.
   */
  static void requireRecoverable(TransactionContext context, FsPath path, Inode file, String holder,
      String clientMachine, Purpose purpose, LeaseLimits limits, long now) throws IOException {
    String writer = file.clientName();
    if (purpose != Purpose.RECOVER_LEASE && holder.equals(writer)) {
      throw new AlreadyBeingCreatedException(message(purpose, path, holder, clientMachine,
          holder + " is already the current lease holder."));
    }
    Optional<Lease> lease = context.cluster().leases().get(writer, LockMode.NONE);
    if (lease.isEmpty()) {
      throw new AlreadyBeingCreatedException(message(purpose, path, holder, clientMachine,
          "the file is under construction but no leases found."));
    }
    if (purpose == Purpose.RECOVER_LEASE || now - lease.get().lastRenewedMs() > limits.softLimitMs()) {
      return;
    }
    List<Block> blocks = context.readFileData(file, LockMode.EXCLUSIVE).blocks();
    if (!blocks.isEmpty() && blocks.get(blocks.size() - 1).state() == BlockState.UNDER_RECOVERY) {
      throw new RecoveryInProgressException(message(purpose, path, holder, clientMachine,
          "another recovery is in progress by " + writer + " on " + file.clientMachine()));
    }
    throw new AlreadyBeingCreatedException(message(purpose, path, holder, clientMachine,
        "this file lease is currently owned by " + writer + " on " + file.clientMachine()));
  }

  /** HDFS's message for a refused take-over: "Failed to OP path for holder on machine because reason". */
  static String message(Purpose purpose, FsPath path, String holder, String clientMachine, String reason) {
    return "Failed to " + purpose + " " + path + " for " + holder + " on " + clientMachine + " because " + reason;
  }
}

package io.canopy.metadata.ignite;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.ignite.client.IgniteClientConnectionException;
import org.apache.ignite.lang.ErrorGroups.Client;
import org.apache.ignite.lang.ErrorGroups.Common;
import org.apache.ignite.lang.ErrorGroups.Replicator;
import org.apache.ignite.lang.ErrorGroups.Transactions;
import org.apache.ignite.lang.IgniteException;

/**
 * Ignite's errors as the DAL's (design 020): a lock conflict settled by wait-die ({@link LockConflictException}), a
 * lost connection, a partition whose primary moved or is being elected are transient (the operation is retried);
 * anything else is not. A lost connection is transient, not "unavailable": it is one node's channel, and the client
 * sends the retry to another node of the cluster (answering the caller "unavailable" at once made every call in
 * flight on a killed node fail).
 */
final class IgniteErrors {
  /** Codes after which running the whole operation again can succeed. */
  private static final Set<Integer> TRANSIENT = Set.of(
      Transactions.ACQUIRE_LOCK_ERR,
      Transactions.ACQUIRE_LOCK_TIMEOUT_ERR,
      Transactions.TX_PRIMARY_REPLICA_EXPIRED_ERR,
      Transactions.TX_STALE_OPERATION_ERR,
      Transactions.TX_ALREADY_FINISHED_WITH_TIMEOUT_ERR,
      // the cluster ended the transaction under a request (its primary replica expired, say: seen as "Transaction is
      // already finished" on SQL); one that ran past its time limit is told apart by IgniteSession
      Transactions.TX_ALREADY_FINISHED_ERR,
      Transactions.TX_FAILED_READ_WRITE_OPERATION_ERR,
      Replicator.REPLICA_COMMON_ERR,
      Replicator.REPLICA_TIMEOUT_ERR,
      Replicator.REPLICA_UNAVAILABLE_ERR,
      Replicator.REPLICA_MISS_ERR,
      Replicator.REPLICA_STOPPING_ERR,
      Replicator.GROUP_OVERLOADED_ERR,
      Client.CONNECTION_ERR,
      // a statement's fragment on a node that left or is stopping ("Node left the cluster", seen on a blind delete
      // when db-2 was killed): the retry runs on the nodes that remain
      Common.NODE_LEFT_ERR,
      Common.NODE_STOPPING_ERR,
      // Ignite's catch-all: seen while a node was lost, a SQL fragment's "Connection refused" to it (design 020);
      // a real fault fails the same way on every one of the bounded attempts
      Common.INTERNAL_ERR);

  private IgniteErrors() {
  }

  /** Whether {@code code} is one of the transient ones. */
  static boolean isTransient(int code) {
    return TRANSIENT.contains(code);
  }

  /**
   * The DAL exception for {@code error}, raised while doing {@code what}. {@code committing}: the error came from a
   * commit, whose outcome a lost connection leaves unknown.
   */
  static StoreException translate(String what, Throwable error, boolean committing) {
    Throwable cause = unwrap(error);
    if (cause instanceof IgniteClientConnectionException) {
      return committing
          ? new TransientStoreException(what + ": connection to the Ignite cluster lost during commit", cause, true)
          : new TransientStoreException(what + ": connection to an Ignite node lost: " + describe(cause), cause,
              false);
    }
    if (cause instanceof IgniteException ignite && ignite.code() == Transactions.ACQUIRE_LOCK_ERR) {
      // wait-die refused the lock: the transaction was rolled back whatever it was doing, a commit included
      return new LockConflictException(what + ": " + ignite.getMessage(), ignite);
    }
    if (cause instanceof IgniteException ignite && (isTransient(ignite.code()) || awaitingPrimary(ignite))) {
      // a transaction found already ended was rolled back: its commit did not happen
      return new TransientStoreException(what + ": " + ignite.getMessage(), ignite,
          committing && !endedTransaction(ignite));
    }
    if (cause instanceof StoreException store) {
      return store;
    }
    return new StoreException(what + ": " + describe(cause), cause);
  }

  /** A throwable's message, or its class (and its cause's) when it has none: "null" tells an operator nothing. */
  static String describe(Throwable error) {
    String message = error.getMessage();
    if (message != null && !message.isBlank()) {
      return message;
    }
    return error.getClass().getName() + (error.getCause() != null && error.getCause() != error
        ? " (" + describe(error.getCause()) + ")" : "");
  }

  /**
   * A partition without a primary yet (its replicas still electing one after nodes started or one was lost). Ignite
   * 3.1 reports it with whatever code its SQL layer copied (IGN-DISTRZONES-1 was seen), so its message is read.
   */
  private static boolean awaitingPrimary(IgniteException error) {
    String message = error.getMessage();
    return message != null && message.contains("Failed to get the primary replica");
  }

  /** Whether {@code error} says the transaction had already ended when the request reached it. */
  static boolean endedTransaction(Throwable error) {
    return unwrap(error) instanceof IgniteException ignite && (ignite.code() == Transactions.TX_ALREADY_FINISHED_ERR
        || ignite.code() == Transactions.TX_ALREADY_FINISHED_WITH_TIMEOUT_ERR);
  }

  private static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}

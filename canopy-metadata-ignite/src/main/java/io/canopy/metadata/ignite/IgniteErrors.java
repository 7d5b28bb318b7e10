package io.canopy.metadata.ignite;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.StoreUnavailableException;
import io.canopy.metadata.TransientStoreException;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.ignite.client.IgniteClientConnectionException;
import org.apache.ignite.lang.ErrorGroups.Client;
import org.apache.ignite.lang.ErrorGroups.Replicator;
import org.apache.ignite.lang.ErrorGroups.Transactions;
import org.apache.ignite.lang.IgniteException;

/**
 * Ignite's errors as the DAL's (design 020): a lock conflict settled by wait-die, a lost connection, a partition
 * whose primary moved or is being elected are transient (the operation is retried); anything else is not.
 */
final class IgniteErrors {
  /** Codes after which running the whole operation again can succeed. */
  private static final Set<Integer> TRANSIENT = Set.of(
      Transactions.ACQUIRE_LOCK_ERR,
      Transactions.ACQUIRE_LOCK_TIMEOUT_ERR,
      Transactions.TX_PRIMARY_REPLICA_EXPIRED_ERR,
      Transactions.TX_STALE_OPERATION_ERR,
      Transactions.TX_ALREADY_FINISHED_WITH_TIMEOUT_ERR,
      Transactions.TX_FAILED_READ_WRITE_OPERATION_ERR,
      Replicator.REPLICA_COMMON_ERR,
      Replicator.REPLICA_TIMEOUT_ERR,
      Replicator.REPLICA_UNAVAILABLE_ERR,
      Replicator.REPLICA_MISS_ERR,
      Replicator.REPLICA_STOPPING_ERR,
      Replicator.GROUP_OVERLOADED_ERR,
      Client.CONNECTION_ERR);

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
          : new StoreUnavailableException(what + ": no connection to the Ignite cluster: " + cause.getMessage(), cause,
              false);
    }
    if (cause instanceof IgniteException ignite && isTransient(ignite.code())) {
      return new TransientStoreException(what + ": " + ignite.getMessage(), ignite,
          committing && ignite.code() != Transactions.ACQUIRE_LOCK_ERR);
    }
    if (cause instanceof StoreException store) {
      return store;
    }
    return new StoreException(what + ": " + cause.getMessage(), cause);
  }

  private static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}

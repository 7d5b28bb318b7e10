package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.StoreUnavailableException;
import io.canopy.metadata.TransientStoreException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;

/**
 * Classifies PostgreSQL errors into unavailable (the database did not answer in time), transient (retry the whole
 * operation) and permanent.
 */
final class SqlErrors {
  private SqlErrors() {
  }

  static StoreException classify(String what, SQLException error, boolean duringCommit) {
    String state = error.getSQLState() == null ? "" : error.getSQLState();
    boolean connectionLost = state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
        || state.equals("57P03");
    if (error instanceof SQLTransientConnectionException) {
      // HikariCP found no usable connection within the connection timeout: the server does not answer, or every
      // connection is busy. Nothing was sent on this operation's behalf.
      return new StoreUnavailableException("No connection to the metadata database within "
          + PostgresSettings.CONNECTION_TIMEOUT_MS + " (" + error.getMessage() + ")", error, false);
    }
    if (connectionLost && causedBySocketTimeout(error)) {
      return new StoreUnavailableException("The metadata database did not answer within "
          + PostgresSettings.SOCKET_TIMEOUT_MS + " (" + withoutSql(what) + ")", error, duringCommit);
    }
    boolean transientState = state.equals("40001") // serialization_failure
        || state.equals("40P01") // deadlock_detected
        || state.equals("55P03") // lock_not_available (lock_timeout)
        || state.equals("25P03") // idle_in_transaction_session_timeout: the session is gone, its work undone
        || state.equals("57014") && error.getMessage() != null && error.getMessage().contains("lock timeout");
    if (connectionLost || transientState || error instanceof SQLTransientException) {
      return new TransientStoreException(what + " failed (SQLSTATE " + state + "): " + error.getMessage(), error,
          duringCommit && connectionLost);
    }
    if (state.equals("57014") && error.getMessage() != null && error.getMessage().contains("statement timeout")) {
      return new StoreException(what + " ran longer than " + PostgresSettings.STATEMENT_TIMEOUT_MS
          + " and was cancelled; raise it if this statement is legitimately that slow", error);
    }
    return new StoreException(what + " failed (SQLSTATE " + state + "): " + error.getMessage(), error);
  }

  /** What was running, without its SQL text: this message goes to clients. */
  private static String withoutSql(String what) {
    int sql = what.indexOf(" [");
    return sql < 0 ? what : what.substring(0, sql);
  }

  private static boolean causedBySocketTimeout(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }
}

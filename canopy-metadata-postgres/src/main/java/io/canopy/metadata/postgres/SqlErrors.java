package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import java.sql.SQLException;
import java.sql.SQLTransientException;

/** Classifies PostgreSQL errors into transient (retry the whole operation) and permanent. */
final class SqlErrors {
  private SqlErrors() {
  }

  static StoreException classify(String what, SQLException error, boolean duringCommit) {
    String state = error.getSQLState() == null ? "" : error.getSQLState();
    boolean connectionLost = state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
        || state.equals("57P03");
    boolean transientState = state.equals("40001") // serialization_failure
        || state.equals("40P01") // deadlock_detected
        || state.equals("55P03") // lock_not_available (lock_timeout)
        || state.equals("57014") && error.getMessage() != null && error.getMessage().contains("lock timeout");
    if (connectionLost || transientState || error instanceof SQLTransientException) {
      return new TransientStoreException(what + " failed (SQLSTATE " + state + "): " + error.getMessage(), error,
          duringCommit && connectionLost);
    }
    return new StoreException(what + " failed (SQLSTATE " + state + "): " + error.getMessage(), error);
  }
}

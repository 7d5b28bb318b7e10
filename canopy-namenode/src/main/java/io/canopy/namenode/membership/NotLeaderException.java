package io.canopy.namenode.membership;

import java.io.IOException;

/**
 * Leader-only work attempted by a namenode that is not (or no longer) the leader: its term is not the one in the
 * database. The transaction that found out is rolled back; nothing it meant to write was written.
 */
public final class NotLeaderException extends IOException {
  public NotLeaderException(String message) {
    super(message);
  }
}

package io.canopy.namenode.membership;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.VariableTable;

/**
 * Fences leader-only work (docs/references.md [Design] s.7): inside the transaction doing the work, the leader term is
 * read with a shared lock and must be the term the namenode was elected with. A new leader increments the term under an
 * exclusive lock, so it waits for fenced transactions in flight and every fenced transaction after it fails: a paused
 * ex-leader can never commit leader work once a new leader exists.
 */
public final class LeaderFence {
  /** The variable holding the current leader term. */
  public static final String TERM = "leader.term";

  private LeaderFence() {
  }

  /** Throws unless {@code term} is still the leader term; holds the term shared until the transaction ends. */
  public static void check(VariableTable variables, long term) throws StoreException, NotLeaderException {
    long current = variables.getLong(TERM, LockMode.SHARED).orElse(0);
    if (current != term || term <= 0) {
      throw new NotLeaderException("leader term " + term + " is over (the current term is " + current
          + "): this namenode is no longer the leader, leader work refused");
    }
  }
}

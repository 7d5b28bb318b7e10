package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Lease;
import java.util.List;
import java.util.Optional;

/** Write leases, keyed by holder (the client name). */
public interface LeaseTable {
  Optional<Lease> get(String holder, LockMode lock) throws StoreException;

  /**
   * Leases last renewed before {@code renewedBeforeMs}, oldest first (ordered by renewal time, then holder), after
   * {@code startAfter} in that order (null: from the oldest), at most {@code limit}, read without locks. An index
   * scan across holders: lease housekeeping only, never on a client's path.
   */
  List<Lease> renewedBefore(long renewedBeforeMs, Lease startAfter, int limit) throws StoreException;

  /**
   * Inserts the lease or replaces the holder's existing one. Two transactions giving a new client its first lease
   * concurrently both succeed (the later commit wins), so a lease needs no prior read.
   */
  void put(Lease lease);

  void delete(String holder);
}

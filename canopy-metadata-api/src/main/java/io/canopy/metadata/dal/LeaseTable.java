package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Lease;
import java.util.Optional;

/** Write leases, keyed by holder (the client name). */
public interface LeaseTable {
  Optional<Lease> get(String holder, LockMode lock) throws StoreException;

  void insert(Lease lease);

  void update(Lease lease);

  void delete(String holder);
}

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;

/**
 * Write leases: a lease per client, a lease path per file it holds open. The lease row only records when its holder
 * last renewed; it is never locked on the client path, so a client's concurrent creates and closes do not
 * serialize on it. A lease row whose holder has no open file left stays until it expires: the leader's lease
 * monitor deletes it once past the hard limit (never on close: a create that skipped rewriting its holder's recent
 * lease must not find it gone).
 */
final class Leases {
  private Leases() {
  }

  /** A lease renewed more recently than this is not rewritten by a create. */
  static final long RENEWAL_GRANULARITY_MS = LeaseLimits.RENEWAL_GRANULARITY_MS;

  /**
   * Opens {@code file} for {@code holder}: the file must be exclusively locked and the holder's lease read with the
   * locks ({@link io.canopy.namenode.tx.LockRequest#withLease}). The lease is written only when missing or not
   * renewed within {@link #RENEWAL_GRANULARITY_MS}.
   */
  static void add(TransactionContext context, Inode file, String holder, long now) {
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    java.util.Optional<Lease> lease = context.lease();
    if (lease.isEmpty() || now - lease.get().lastRenewedMs() >= RENEWAL_GRANULARITY_MS) {
      transaction.leases().put(new Lease(holder, now));
    }
    transaction.leasePaths().insert(new LeasePath(holder, file.id()));
  }

  /**
   * Closes {@code files} (all held by {@code holder}, all exclusively locked, all closing in this transaction). The
   * lease row stays (see the class comment).
   */
  static void remove(TransactionContext context, String holder, Set<Inode> files) {
    for (Inode file : files) {
      context.fileData(file, LockMode.EXCLUSIVE).leasePaths().delete(new LeasePath(holder, file.id()));
    }
  }

  /**
   * Moves the exclusively locked open {@code file} to {@code newHolder}: its lease path and its writer name. The
   * new holder's lease is renewed (recoveries are rare: the row is always written). Returns the reassigned file.
   */
  static Inode reassign(TransactionContext context, Inode file, String newHolder, long now) {
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    Inode held = file;
    if (!newHolder.equals(file.clientName())) {
      transaction.leasePaths().delete(new LeasePath(file.clientName(), file.id()));
      transaction.leasePaths().insert(new LeasePath(newHolder, file.id()));
      held = file.reassigned(newHolder);
      context.updateInode(held);
    }
    transaction.leases().put(new Lease(newHolder, now));
    return held;
  }

  /** HDFS's check that {@code holder} is writing {@code file}. */
  static void check(Inode file, String holder, String path) throws LeaseExpiredException {
    if (file.directory()) {
      throw new LeaseExpiredException("INode is not a regular file: " + path + " (inode " + file.id() + ") Holder "
          + holder + " does not have any open files.");
    }
    if (!file.underConstruction()) {
      throw new LeaseExpiredException("No lease on " + path + " (inode " + file.id() + "): File is not open for "
          + "writing. Holder " + holder + " does not have any open files.");
    }
    if (!file.clientName().equals(holder)) {
      throw new LeaseExpiredException("Client (=" + holder + ") is not the lease owner (=" + file.clientName()
          + ") of " + path + " (inode " + file.id() + ")");
    }
  }
}

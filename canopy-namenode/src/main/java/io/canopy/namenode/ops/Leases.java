package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;

/** Write leases: a lease per client, a lease path per file it holds open. Written after the file's inode lock. */
final class Leases {
  private Leases() {
  }

  /** Opens {@code file} for {@code holder} and renews the holder's lease: the file must be exclusively locked. */
  static void add(TransactionContext context, Inode file, String holder, long now) {
    Transaction transaction = context.fileData(file, LockMode.EXCLUSIVE);
    transaction.leases().put(new Lease(holder, now));
    transaction.leasePaths().insert(new LeasePath(holder, file.id()));
  }

  /**
   * Closes {@code files} (all held by {@code holder}, all exclusively locked, all closing in this transaction); the
   * lease goes when the holder keeps no other file open.
   */
  static void remove(TransactionContext context, String holder, Set<Inode> files) throws StoreException {
    Transaction transaction = null;
    for (Inode file : files) {
      transaction = context.fileData(file, LockMode.EXCLUSIVE);
      transaction.leasePaths().delete(new LeasePath(holder, file.id()));
    }
    if (transaction == null) {
      return;
    }
    Set<Long> closing = new java.util.HashSet<>();
    files.forEach(file -> closing.add(file.id()));
    boolean others = transaction.leasePaths().ofHolder(holder).stream().anyMatch(p -> !closing.contains(p.inodeId()));
    if (!others) {
      transaction.leases().delete(holder);
    }
  }

  /** HDFS's check that {@code holder} is writing {@code file}. */
  static void check(Inode file, String holder, String path) throws LeaseExpiredException, FileNotFoundException {
    if (file.directory()) {
      throw new FileNotFoundException("Path is not a file: " + path);
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

package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;

/** Write leases: a lease per client, a lease path per file it holds open. Locked after the file's inode. */
final class Leases {
  private Leases() {
  }

  /** Opens {@code file} for {@code holder}: the file must be exclusively locked. */
  static void add(TransactionContext context, Inode file, String holder, long now) throws StoreException {
    Transaction transaction = context.fileData(file, LockMode.EXCLUSIVE);
    if (transaction.leases().get(holder, LockMode.EXCLUSIVE).isPresent()) {
      transaction.leases().update(new Lease(holder, now));
    } else {
      transaction.leases().insert(new Lease(holder, now));
    }
    transaction.leasePaths().insert(new LeasePath(holder, file.id()));
  }

  /** Closes {@code file} for {@code holder}; the lease goes when it holds no other file. */
  static void remove(TransactionContext context, Inode file, String holder) throws StoreException {
    Transaction transaction = context.fileData(file, LockMode.EXCLUSIVE);
    if (transaction.leases().get(holder, LockMode.EXCLUSIVE).isEmpty()) {
      return;
    }
    transaction.leasePaths().delete(new LeasePath(holder, file.id()));
    boolean others = transaction.leasePaths().ofHolder(holder).stream().anyMatch(p -> p.inodeId() != file.id());
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

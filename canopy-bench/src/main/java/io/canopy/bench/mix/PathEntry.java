package io.canopy.bench.mix;

import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.hadoop.fs.Path;

/**
 * A file or directory of the working set. Operations that leave the path in place (read, stat, listing,
 * setReplication, chmod) hold the read lock while they run; operations that move or remove it (rename, delete) hold
 * the write lock. So a read never races a delete of the same file and reports a spurious failure, while two reads of
 * one file, and operations on different files, never wait for each other. A thread holds at most one entry lock at a
 * time, so there is no lock-order deadlock.
 */
final class PathEntry {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final boolean createdByRun;
  private volatile Path path;
  private volatile boolean removed;

  PathEntry(Path path, boolean createdByRun) {
    this.path = Objects.requireNonNull(path, "path");
    this.createdByRun = createdByRun;
  }

  Path path() {
    return path;
  }

  /** True if a create of this run (warm-up included) made the file. */
  boolean createdByRun() {
    return createdByRun;
  }

  boolean removed() {
    return removed;
  }

  /** Locks the entry for an operation that keeps it; false (and unlocked) if it was removed meanwhile. */
  boolean lockShared() {
    lock.readLock().lock();
    if (removed) {
      lock.readLock().unlock();
      return false;
    }
    return true;
  }

  void unlockShared() {
    lock.readLock().unlock();
  }

  /** Locks the entry for a rename or delete; false (and unlocked) if it was removed meanwhile. */
  boolean lockExclusive() {
    lock.writeLock().lock();
    if (removed) {
      lock.writeLock().unlock();
      return false;
    }
    return true;
  }

  void unlockExclusive() {
    lock.writeLock().unlock();
  }

  /** After a rename, under the write lock. */
  void moveTo(Path newPath) {
    checkExclusive();
    path = Objects.requireNonNull(newPath, "newPath");
  }

  /** After a delete, under the write lock; the working set drops the entry lazily. */
  void markRemoved() {
    checkExclusive();
    removed = true;
  }

  private void checkExclusive() {
    if (!lock.isWriteLockedByCurrentThread()) {
      throw new IllegalStateException("entry " + path + " changed without its write lock");
    }
  }

  @Override
  public String toString() {
    return path + (removed ? " (removed)" : "");
  }
}

package io.canopy.metadata;

/**
 * Row lock taken by a read. The papers' model (docs/references.md [HopsFS-Thesis] s.4.1.2): reads run at read-committed
 * isolation and take row locks explicitly; a transaction takes each lock once, at the strongest mode it will need.
 * A request that meets a conflicting lock held by another transaction either waits for it (PostgreSQL) or, on an
 * engine that prevents deadlocks by wait-die (Ignite 3, design 020), fails at once with a
 * {@link TransientStoreException} when the requester is the younger; it never proceeds while the holder holds it.
 */
public enum LockMode {
  /** No lock: sees the latest committed version. */
  NONE,
  /** Shared row lock, held to the end of the transaction. */
  SHARED,
  /** Exclusive row lock, held to the end of the transaction. */
  EXCLUSIVE;

  /** True when this mode is at least as strong as {@code other}. */
  public boolean covers(LockMode other) {
    return ordinal() >= other.ordinal();
  }
}

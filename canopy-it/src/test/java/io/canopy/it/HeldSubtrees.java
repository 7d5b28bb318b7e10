package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.SubtreeOperation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Subtree flags (design 017) set and read straight in the database, as a subtree operation's steps leave them. */
final class HeldSubtrees {
  private HeldSubtrees() {
  }

  /**
   * Flags directory {@code id} (at {@code path}) as held by namenode {@code owner} since {@code startedMs}, with its
   * {@code subtree_operations} row, as a subtree operation's first step does; {@link Inode#NO_SUBTREE_LOCK} clears
   * both.
   */
  static void hold(MetadataStore store, long id, String path, long owner, long startedMs) throws IOException {
    try (Transaction tx = store.begin()) {
      Inode inode = tx.inodes().getById(id, LockMode.EXCLUSIVE).orElseThrow();
      tx.inodes().update(inode.withSubtreeLockOwner(owner));
      if (owner != Inode.NO_SUBTREE_LOCK) {
        tx.subtreeOperations().put(new SubtreeOperation(id, owner, "delete", path, startedMs));
      } else {
        tx.subtreeOperations().delete(id);
      }
      tx.commit();
    }
  }

  /** The running subtree operations' rows. */
  static List<SubtreeOperation> running(MetadataStore store) throws IOException {
    try (Transaction tx = store.begin()) {
      return tx.subtreeOperations().all(100);
    }
  }

  /** The namespace's and quotas' invariants hold, and no subtree operation or flag is left. */
  static void assertClean(MetadataStore store) throws IOException {
    assertEquals(List.of(), NamespaceInvariants.violations(store));
    assertEquals(List.of(), running(store), "no subtree operation left running");
    assertEquals(List.of(), flagged(store), "no flag left");
  }

  /** The names of the flagged inodes, in name order. */
  static List<String> flagged(MetadataStore store) throws IOException {
    List<String> names = new ArrayList<>();
    for (List<String> row : StoreQueries.query(store,
        "SELECT name FROM inodes WHERE subtree_lock_owner <> 0 ORDER BY name", 100).rows()) {
      names.add(row.get(0));
    }
    return names;
  }
}

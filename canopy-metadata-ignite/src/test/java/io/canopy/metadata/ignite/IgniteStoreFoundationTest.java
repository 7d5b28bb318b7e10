package io.canopy.metadata.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.IdRange;
import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Ignite engine carries so far (design 020, issue 18: the whole contract suite comes when every table does):
 * format and identity, id ranges, inodes by key, by id and by directory scan, and the lock mapping: an exclusive read
 * makes a younger reader fail at once with a transient error (wait-die), a shared one does not. One node.
 */
class IgniteStoreFoundationTest {
  private static final long ROOT_ID = 16385L;
  private static final NamespaceIdentity IDENTITY =
      new NamespaceIdentity(42, "CID-ignite", "BP-42-127.0.0.1-1700000000000", 1_700_000_000_000L);
  private static final Inode ROOT = directory(ROOT_ID, 0, "").toBuilder().partitionId(0L).build();

  @TempDir
  static Path directory;
  private static IgniteTestCluster cluster;
  private static MetadataStore store;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = IgniteTestCluster.start(directory, 1);
    store = MetadataStoreProvider.open("ignite", cluster.settings());
  }

  @AfterAll
  static void stopCluster() {
    if (store != null) {
      store.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void format() throws Exception {
    store.format(IDENTITY, ROOT, true);
  }

  private static Inode directory(long id, long parentId, String name) {
    return Inode.builder().id(id).partitionId(parentId).parentId(parentId).name(name).directory(true)
        .permission((short) 0755).owner("hdfs").group("supergroup").modificationTime(1_000L).build();
  }

  private static Inode file(long id, long parentId, String name) {
    return Inode.builder().id(id).partitionId(parentId).parentId(parentId).name(name).permission((short) 0644)
        .owner("alice").group("staff").modificationTime(2_000L).accessTime(1_500L).replication((short) 3)
        .preferredBlockSize(128L << 20).storagePolicy((byte) 7).clientName("DFSClient_1").clientMachine("10.0.0.9")
        .underConstruction(true).build();
  }

  @Test
  void formatKeepsTheIdentityAndRefusesASecondFormatWithoutForce() throws Exception {
    assertEquals(IDENTITY, store.identity());
    StoreException refused = assertThrows(StoreException.class, () -> store.format(IDENTITY, ROOT, false));
    assertTrue(refused.getMessage().contains("already holds a namespace"), refused.getMessage());
    try (Transaction tx = store.begin()) {
      assertEquals(ROOT, tx.inodes().get(ROOT.key(), LockMode.NONE).orElseThrow());
    }
  }

  @Test
  void idRangesFollowEachOtherFromTheFirstValue() throws Exception {
    IdRange first = store.allocateIds(IdKind.INODE, 1000);
    IdRange second = store.allocateIds(IdKind.INODE, 10);
    assertEquals(IdKind.INODE.firstValue(), first.first());
    assertEquals(first.endExclusive(), second.first());
    try (Transaction tx = store.begin()) {
      tx.idCounters().advanceTo(IdKind.BLOCK, IdKind.BLOCK.firstValue() + 5_000);
      tx.idCounters().advanceTo(IdKind.INODE, 1); // never lowers
      tx.commit();
    }
    assertEquals(IdKind.BLOCK.firstValue() + 5_000, store.allocateIds(IdKind.BLOCK, 1).first());
    assertEquals(second.endExclusive(), store.allocateIds(IdKind.INODE, 1).first());
  }

  @Test
  void inodesAreReadByKeyByIdAndByDirectoryScanInNameOrder() throws Exception {
    try (Transaction tx = store.begin()) {
      tx.inodes().insert(directory(20_000, ROOT_ID, "dir"));
      for (String name : List.of("b", "a", "c", "é", "Z")) {
        tx.inodes().insert(file(20_100 + name.charAt(0), 20_000, name));
      }
      tx.commit();
    }
    try (Transaction tx = store.begin()) {
      Inode b = file(20_100 + 'b', 20_000, "b");
      assertEquals(b, tx.inodes().get(b.key(), LockMode.SHARED).orElseThrow());
      assertEquals(b, tx.inodes().getById(b.id(), LockMode.NONE).orElseThrow());
      Map<InodeKey, Inode> some = tx.inodes().getAll(List.of(b.key(), new InodeKey(20_000, 20_000, "none"),
          new InodeKey(ROOT_ID, ROOT_ID, "dir")), LockMode.NONE);
      assertEquals(2, some.size());
      assertEquals(List.of("Z", "a", "b", "c", "é"), names(tx.inodes().children(20_000, 20_000, null, 10,
          LockMode.NONE)));
      assertEquals(List.of("b", "c"), names(tx.inodes().children(20_000, 20_000, "a", 2, LockMode.SHARED)));
      assertTrue(tx.inodes().children(20_001, 20_001, "", 10, LockMode.NONE).isEmpty());
    }
  }

  @Test
  void aMoveKeepsTheIdAndAReadByIdFindsTheNewKey() throws Exception {
    Inode f = file(21_000, ROOT_ID, "f");
    try (Transaction tx = store.begin()) {
      tx.inodes().insert(f);
      tx.commit();
    }
    try (Transaction tx = store.begin()) {
      Inode read = tx.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
      tx.inodes().delete(read.key());
      tx.inodes().insert(read.withLocation(ROOT_ID, ROOT_ID, "g").withSize(7));
      tx.commit();
    }
    try (Transaction tx = store.begin()) {
      Inode moved = tx.inodes().getById(21_000, LockMode.SHARED).orElseThrow();
      assertEquals("g", moved.name());
      assertEquals(7, moved.size());
      assertFalse(tx.inodes().get(f.key(), LockMode.NONE).isPresent());
      tx.inodes().delete(moved.key());
      tx.commit();
    }
    try (Transaction tx = store.begin()) {
      assertTrue(tx.inodes().getById(21_000, LockMode.NONE).isEmpty());
    }
  }

  @Test
  void aSecondInsertOfAKeyIsRefused() throws Exception {
    try (Transaction tx = store.begin()) {
      tx.inodes().insert(file(22_000, ROOT_ID, "twice"));
      tx.commit();
    }
    Transaction tx = store.begin();
    tx.inodes().insert(file(22_001, ROOT_ID, "twice"));
    StoreException refused = assertThrows(StoreException.class, tx::commit);
    assertFalse(refused instanceof TransientStoreException, refused.toString());
    try (Transaction check = store.begin()) {
      assertEquals(22_000, check.inodes().get(new InodeKey(ROOT_ID, ROOT_ID, "twice"), LockMode.NONE)
          .orElseThrow().id());
    }
  }

  @Test
  void anExclusiveReadMakesAYoungerReaderFailTransientlyAndASharedOneDoesNot() throws Exception {
    Inode f = file(23_000, ROOT_ID, "locked");
    try (Transaction tx = store.begin()) {
      tx.inodes().insert(f);
      tx.commit();
    }
    try (Transaction shared = store.begin(); Transaction other = store.begin()) {
      shared.inodes().get(f.key(), LockMode.SHARED);
      assertEquals(f, other.inodes().get(f.key(), LockMode.SHARED).orElseThrow());
    }
    try (Transaction older = store.begin(); Transaction younger = store.begin()) {
      older.inodes().get(f.key(), LockMode.EXCLUSIVE);
      long start = System.nanoTime();
      assertThrows(LockConflictException.class, () -> younger.inodes().get(f.key(), LockMode.SHARED));
      assertTrue(System.nanoTime() - start < 10_000_000_000L, "wait-die refuses at once, without a timeout");
      // the unlocked read does not wait either, and sees the committed row
      try (Transaction reader = store.begin()) {
        assertEquals(f, reader.inodes().get(f.key(), LockMode.NONE).orElseThrow());
      }
    }
  }

  @Test
  void aReadOnlyTransactionRefusesWritesAtCommit() throws Exception {
    Transaction tx = store.beginReadOnly();
    assertTrue(tx.readOnly());
    assertTrue(tx.inodes().get(ROOT.key(), LockMode.NONE).isPresent());
    tx.inodes().insert(file(24_000, ROOT_ID, "no"));
    assertThrows(IllegalStateException.class, tx::commit);
    try (Transaction check = store.begin()) {
      assertTrue(check.inodes().get(new InodeKey(ROOT_ID, ROOT_ID, "no"), LockMode.NONE).isEmpty());
    }
  }

  /**
   * A transaction that runs past its time limit is ended by Ignite; the request that finds it ended fails with an
   * error naming the limit and its key, not as transient (running the operation again would run as long).
   */
  @Test
  void aTransactionPastItsTimeLimitFailsNamingTheLimit() throws Exception {
    Map<String, String> settings = new java.util.HashMap<>(cluster.settings());
    settings.put(IgniteSettings.TRANSACTION_TIMEOUT_MS, "1000");
    try (MetadataStore limited = MetadataStoreProvider.open("ignite", settings);
        Transaction tx = limited.begin()) {
      tx.inodes().get(new InodeKey(ROOT_ID, ROOT_ID, "a"), LockMode.SHARED); // begins the transaction
      Thread.sleep(1_200);
      // Ignite ends expired transactions in a periodic sweep: the request that finds it ended comes within seconds
      StoreException ended = null;
      for (int tries = 0; ended == null && tries < 40; tries++) {
        try {
          tx.inodes().children(ROOT_ID, ROOT_ID, "", 10, LockMode.SHARED);
          Thread.sleep(250);
        } catch (StoreException e) {
          ended = e;
        }
      }
      assertTrue(ended != null, "the transaction was not ended within 11 s of its 1 s limit");
      assertFalse(ended instanceof TransientStoreException, ended.toString());
      assertTrue(ended.getMessage().contains("past Ignite's limit of 1000 ms")
          && ended.getMessage().contains(IgniteSettings.TRANSACTION_TIMEOUT_MS), ended.getMessage());
    }
  }

  @Test
  void directoryScansUseThePrimaryKeyOrTheParentIndexNeverAWholeTableScan() throws Exception {
    Map<String, String> settings = cluster.settings();
    try (IgniteClient client = IgniteClient.builder()
        .addresses(settings.get(IgniteSettings.ADDRESSES).split(",")).build()) {
      String children = plan(client, IgniteInodeTable.CHILDREN, 1L, 1L, new byte[0], 10);
      String spread = plan(client, IgniteInodeTable.SPREAD_CHILDREN, 1L, new byte[0], 10);
      assertTrue(children.contains("IndexScan") && children.contains(IgniteSchema.INODES + "_PK")
          && !children.contains("TableScan"), children);
      assertTrue(spread.contains("IndexScan") && spread.contains(IgniteSchema.INODES + "_BY_PARENT")
          && !spread.contains("TableScan"), spread);
      // one file's rows through the hash index on its inode id: no range of the primary key, so no next-key lock
      for (String table : IgniteSchema.READ_BY_INODE) {
        String byInode = plan(client, "SELECT /*+ FORCE_INDEX(" + IgniteSchema.byInode(table) + ") */ * FROM " + table
            + " WHERE INODE_ID = ?", 5L);
        assertTrue(byInode.contains("IndexScan") && byInode.contains(IgniteSchema.byInode(table))
            && !byInode.contains("TableScan"), byInode);
      }
    }
  }

  /** A namespace formatted before the per-file hash indexes existed gets them when a store first uses it. */
  @Test
  void aMissingPerFileIndexIsMadeOnFirstUse() throws Exception {
    Map<String, String> settings = cluster.settings();
    String index = IgniteSchema.byInode(IgniteSchema.XATTRS);
    try (IgniteClient client = IgniteClient.builder()
        .addresses(settings.get(IgniteSettings.ADDRESSES).split(",")).build()) {
      client.sql().executeScript("DROP INDEX IF EXISTS " + index);
      assertEquals("", indexState(client, index));
      try (MetadataStore fresh = MetadataStoreProvider.open("ignite", settings); Transaction tx = fresh.begin()) {
        assertEquals(List.of(), tx.xattrs().ofInode(ROOT_ID));
      }
      assertEquals("AVAILABLE", indexState(client, index));
    }
  }

  private static String indexState(IgniteClient client, String index) {
    try (ResultSet<SqlRow> rows = client.sql().execute(null,
        "SELECT INDEX_STATE FROM SYSTEM.INDEXES WHERE INDEX_NAME = ?", index)) {
      return rows.hasNext() ? rows.next().stringValue(0) : "";
    }
  }

  private static String plan(IgniteClient client, String query, Object... arguments) {
    StringBuilder plan = new StringBuilder();
    try (ResultSet<SqlRow> rows = client.sql().execute(null, "EXPLAIN PLAN FOR " + query, arguments)) {
      rows.forEachRemaining(row -> plan.append(row.stringValue(0)).append('\n'));
    }
    return plan.toString();
  }

  private static List<String> names(List<Inode> inodes) {
    List<String> names = new ArrayList<>();
    for (Inode inode : inodes) {
      names.add(inode.name());
    }
    return names;
  }
}

package io.canopy.metadata;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.FutureBlock;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.metadata.entity.NamespaceIdentity;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.ReplicaWithBlock;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.metadata.entity.XAttrNamespace;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link MetadataStore} engine honours (docs/references.md [Design] s.10: one abstract suite per
 * SPI, one thin subclass per engine). Each test gets a store over a fresh, empty namespace, formatted with
 * {@link #IDENTITY} and {@link #ROOT}; nothing is faked, every assertion runs against the real engine.
 */
public abstract class MetadataStoreContractTest {
  protected static final long ROOT_ID = 16385L;
  protected static final NamespaceIdentity IDENTITY =
      new NamespaceIdentity(42, "CID-contract", "BP-42-127.0.0.1-1700000000000", 1_700_000_000_000L);
  protected static final NamespaceIdentity OTHER_IDENTITY =
      new NamespaceIdentity(7, "CID-other", "BP-7-127.0.0.1-1800000000000", 1_800_000_000_000L);
  protected static final Inode ROOT = Inode.builder().id(ROOT_ID).partitionId(0L).parentId(0L).name("")
      .directory(true).permission((short) 0755).owner("hdfs").group("supergroup").modificationTime(1_000L).build();

  /** How long a blocked reader must stay blocked before the lock holder lets go. */
  private static final long HOLD_MS = 400;
  /** Upper bound on anything a test waits for; generous so slow machines do not flake. */
  private static final long WAIT_SECONDS = 30;

  protected MetadataStore store;
  private ExecutorService threads;

  /**
   * A store over an empty namespace (no identity, no rows) that no other test uses. Called once per test, and
   * once more by the test of formatting a fresh store; the suite closes every store it gets.
   */
  protected abstract MetadataStore newStore() throws Exception;

  /**
   * Whether the engine sends a {@link ReadBatch}, a small transaction's writes with its commit, or a batched
   * primary-key read in one round trip (PostgreSQL: pipelines). An engine that cannot (Ignite: one request per read,
   * design 020) must still count every request it waited for, at least one.
   */
  protected boolean batchesInOneRoundTrip() {
    return true;
  }

  /**
   * Whether the engine records replica-bucket changes apart and folds them later ({@code ReplicaTable
   * .foldBucketChanges}; PostgreSQL's triggers), rather than keeping or computing its buckets in place.
   */
  protected boolean recordsBucketChangesApart() {
    return true;
  }

  /** {@code trips} round trips were one, or at least one on an engine without one-round-trip batches. */
  private void assertOneRoundTrip(int trips, String message) {
    if (batchesInOneRoundTrip()) {
      assertEquals(1, trips, message);
    } else {
      assertTrue(trips >= 1, message + ": counted " + trips);
    }
  }

  /** An administrative query returning the columns {@code id, name} of every inode, ordered by id. */
  protected String adminQueryInodeIdsAndNames() {
    return "SELECT id, name FROM inodes ORDER BY id";
  }

  /** An administrative statement that would delete every inode if it were allowed to write. */
  protected String adminQueryDeletingInodes() {
    return "DELETE FROM inodes";
  }

  /**
   * A statement list that ends the read-only transaction the store runs operator queries in, then deletes every
   * inode: it must be refused as a whole.
   */
  protected String adminQueryCommittingThenDeletingInodes() {
    return "COMMIT; DELETE FROM inodes";
  }

  @BeforeEach
  void openFormattedStore() throws Exception {
    threads = Executors.newCachedThreadPool();
    store = newStore();
    store.format(IDENTITY, ROOT, false);
  }

  @AfterEach
  void closeStore() {
    threads.shutdownNow();
    if (store != null) {
      store.close();
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // format and identity

  @Test
  void freshStoreHasNoIdentityUntilFormatted() throws Exception {
    try (MetadataStore fresh = newStore()) {
      assertNull(fresh.identity());
      fresh.format(OTHER_IDENTITY, ROOT, false);
      assertEquals(OTHER_IDENTITY, fresh.identity());
      try (Transaction tx = fresh.begin()) {
        assertEquals(Optional.of(ROOT), tx.inodes().get(ROOT.key(), LockMode.NONE));
        assertEquals(Optional.of(ROOT), tx.inodes().getById(ROOT_ID, LockMode.NONE));
      }
    }
  }

  @Test
  void formatCreatesIdentityAndRoot() throws Exception {
    assertEquals(IDENTITY, store.identity());
    assertEquals(Optional.of(ROOT), inode(ROOT.key()));
    assertEquals(List.of(), children(ROOT_ID, null, 100));
  }

  @Test
  void formatWithoutForceOnExistingNamespaceThrowsAndChangesNothing() throws Exception {
    populateEveryTable();
    IdRange before = store.allocateIds(IdKind.INODE, 10);

    assertThrows(StoreException.class, () -> store.format(OTHER_IDENTITY, ROOT, false));

    assertEquals(IDENTITY, store.identity());
    assertEquals(Optional.of(file(20_001, ROOT_ID, "f")), inode(new InodeKey(ROOT_ID, ROOT_ID, "f")));
    assertEveryTablePopulated();
    IdRange after = store.allocateIds(IdKind.INODE, 1);
    assertTrue(after.first() >= before.endExclusive(), "id sequence was reset: " + before + " then " + after);
  }

  @Test
  void formatWithForceEmptiesEveryTable() throws Exception {
    populateEveryTable();
    store.allocateIds(IdKind.INODE, 10);
    store.allocateIds(IdKind.BLOCK, 10);

    store.format(OTHER_IDENTITY, ROOT, true);

    assertEquals(OTHER_IDENTITY, store.identity());
    assertEquals(Optional.of(ROOT), inode(ROOT.key()));
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.inodes().children(ROOT_ID, ROOT_ID, null, 100, LockMode.NONE));
      assertEquals(Optional.empty(), tx.inodes().getById(20_001, LockMode.NONE));
      assertEquals(List.of(), tx.blocks().ofFiles(List.of(20_001L, 20_002L)));
      assertEquals(Map.of(), tx.blockLookup().inodesOf(List.of(1_001L, 1_002L)));
      assertEquals(List.of(), tx.replicas().onStorage("DS-1"));
      assertEquals(List.of(), tx.ucReplicas().ofFile(20_002));
      assertEquals(Optional.empty(), tx.leases().get("client-1", LockMode.NONE));
      assertEquals(List.of(), tx.leasePaths().ofHolder("client-1"));
      assertEquals(List.of(), tx.datanodes().all());
      assertEquals(List.of(), tx.storages().all());
      assertEquals(List.of(), tx.invalidations().ofDatanode("dn-1", 100));
      assertEquals(List.of(), tx.replicationQueue().page(null, 100));
      assertEquals(List.of(), tx.xattrs().ofInode(20_001));
      assertEquals(List.of(), tx.namenodes().all());
      assertEquals(Map.of(), tx.acls().ofInodes(List.of(20_001L)));
      assertEquals(OptionalLong.empty(), tx.variables().getLong("leader.term", LockMode.NONE));
      assertFalse(tx.quotas().any());
    }
    for (IdKind kind : IdKind.values()) {
      assertEquals(kind.firstValue(), store.allocateIds(kind, 1).first(), kind + " sequence not reset");
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // id allocation

  @Test
  void firstAllocationAfterFormatStartsAtFirstValue() throws Exception {
    for (IdKind kind : IdKind.values()) {
      IdRange range = store.allocateIds(kind, 5);
      assertEquals(kind.firstValue(), range.first(), kind.name());
      assertEquals(5, range.count());
    }
  }

  @Test
  void allocatedRangesAreDisjointAndIncreasingPerKind() throws Exception {
    IdRange inodes1 = store.allocateIds(IdKind.INODE, 10);
    IdRange blocks1 = store.allocateIds(IdKind.BLOCK, 3);
    IdRange inodes2 = store.allocateIds(IdKind.INODE, 1);
    IdRange blocks2 = store.allocateIds(IdKind.BLOCK, 100);
    IdRange inodes3 = store.allocateIds(IdKind.INODE, 7);

    assertEquals(IdKind.BLOCK.firstValue(), blocks1.first(), "other kinds' allocations must not move BLOCK");
    assertEquals(List.of(10, 3, 1, 100, 7),
        List.of(inodes1.count(), blocks1.count(), inodes2.count(), blocks2.count(), inodes3.count()));
    assertTrue(inodes2.first() >= inodes1.endExclusive(), inodes1 + " then " + inodes2);
    assertTrue(inodes3.first() >= inodes2.endExclusive(), inodes2 + " then " + inodes3);
    assertTrue(blocks2.first() >= blocks1.endExclusive(), blocks1 + " then " + blocks2);
  }

  @Test
  void concurrentAllocationsYieldDisjointRanges() throws Exception {
    int threadCount = 4;
    int perThread = 20;
    CyclicBarrier start = new CyclicBarrier(threadCount);
    List<Future<List<IdRange>>> futures = new ArrayList<>();
    for (int t = 0; t < threadCount; t++) {
      futures.add(threads.submit(() -> {
        start.await(WAIT_SECONDS, SECONDS);
        List<IdRange> mine = new ArrayList<>();
        for (int i = 0; i < perThread; i++) {
          mine.add(store.allocateIds(IdKind.BLOCK, 7));
        }
        return mine;
      }));
    }
    List<IdRange> all = new ArrayList<>();
    for (Future<List<IdRange>> future : futures) {
      List<IdRange> mine = future.get(WAIT_SECONDS, SECONDS);
      for (int i = 1; i < mine.size(); i++) {
        assertTrue(mine.get(i).first() >= mine.get(i - 1).endExclusive(), "not increasing within a thread");
      }
      all.addAll(mine);
    }
    all.sort(Comparator.comparingLong(IdRange::first));
    assertEquals(threadCount * perThread, all.size());
    assertEquals(IdKind.BLOCK.firstValue(), all.get(0).first());
    for (int i = 1; i < all.size(); i++) {
      assertTrue(all.get(i).first() >= all.get(i - 1).endExclusive(),
          "overlapping ranges " + all.get(i - 1) + " and " + all.get(i));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // inodes

  @Test
  void insertedInodeReadsBackWithEveryField() throws Exception {
    Inode open = Inode.builder().id(20_001).partitionId(ROOT_ID).parentId(ROOT_ID).name("open")
        .permission((short) 0640).owner("alice").group("staff").modificationTime(123_456L).accessTime(98_765L)
        .size(4_242L).replication((short) 3).preferredBlockSize(134_217_728L).storagePolicy((byte) 7)
        .underConstruction(true).clientName("DFSClient_1").clientMachine("10.0.0.9").build();
    Inode link = Inode.builder().id(20_002).partitionId(ROOT_ID).parentId(ROOT_ID).name("link")
        .permission((short) 0777).owner("bob").group("wheel").modificationTime(5L).accessTime(6L)
        .symlinkTarget("/target/of/link").build();
    Inode dir = Inode.builder().id(20_003).partitionId(ROOT_ID).parentId(ROOT_ID).name("dir").directory(true)
        .permission((short) 01755).owner("carol").group("users").modificationTime(7L).accessTime(8L)
        .storagePolicy((byte) 12).childrenCount(12L).build();
    insertCommitted(open, link, dir);

    assertEquals(Optional.of(open), inode(open.key()));
    assertEquals(Optional.of(link), inode(link.key()));
    assertEquals(Optional.of(dir), inode(dir.key()));
  }

  @Test
  void getOfMissingKeyIsEmpty() throws Exception {
    insertCommitted(file(20_001, ROOT_ID, "f"));
    assertEquals(Optional.empty(), inode(new InodeKey(ROOT_ID, ROOT_ID, "g")));
    assertEquals(Optional.empty(), inode(new InodeKey(ROOT_ID, 20_001, "f")));
    assertEquals(Optional.empty(), inode(new InodeKey(20_001, ROOT_ID, "f")));
  }

  @Test
  void getAllReturnsPresentKeysOnlyWhateverTheirOrder() throws Exception {
    Inode a = file(20_001, ROOT_ID, "a");
    Inode b = file(20_002, ROOT_ID, "b");
    Inode c = file(20_003, 20_009, "c");
    insertCommitted(a, b, c);
    InodeKey missing1 = new InodeKey(ROOT_ID, ROOT_ID, "zz");
    InodeKey missing2 = new InodeKey(ROOT_ID, 20_009, "a");

    try (Transaction tx = begin()) {
      Map<InodeKey, Inode> forward =
          tx.inodes().getAll(List.of(a.key(), missing1, b.key(), c.key(), missing2), LockMode.NONE);
      Map<InodeKey, Inode> backward =
          tx.inodes().getAll(List.of(missing2, c.key(), b.key(), missing1, a.key()), LockMode.SHARED);
      Map<InodeKey, Inode> expected = Map.of(a.key(), a, b.key(), b, c.key(), c);
      assertEquals(expected, Map.copyOf(forward));
      assertEquals(expected, Map.copyOf(backward));
      assertEquals(Map.of(), tx.inodes().getAll(List.of(missing1, missing2), LockMode.EXCLUSIVE));
      assertEquals(Map.of(), tx.inodes().getAll(List.of(), LockMode.NONE));
    }
  }

  @Test
  void getByIdFindsInodeWhereverItLives() throws Exception {
    Inode deep = file(20_005, 20_004, "deep");
    insertCommitted(directory(20_004, ROOT_ID, "d"), deep);
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(deep), tx.inodes().getById(20_005, LockMode.NONE));
      assertEquals(Optional.of(deep), tx.inodes().getById(20_005, LockMode.EXCLUSIVE));
      assertEquals(Optional.empty(), tx.inodes().getById(20_006, LockMode.SHARED));
    }
  }

  @Test
  void updateReplacesAttributesOfTheKeyedRow() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode other = file(20_002, ROOT_ID, "g");
    insertCommitted(f, other);
    Inode changed = f.withSize(777).withPermission((short) 0600).withOwnership("dave", "ops").withTimes(9, 10)
        .withReplication((short) 5);
    inTransaction(tx -> tx.inodes().update(changed));
    assertEquals(Optional.of(changed), inode(f.key()));
    assertEquals(Optional.of(other), inode(other.key()));
  }

  @Test
  void deleteRemovesOnlyTheKeyedRow() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode g = file(20_002, ROOT_ID, "g");
    insertCommitted(f, g);
    inTransaction(tx -> tx.inodes().delete(f.key()));
    assertEquals(Optional.empty(), inode(f.key()));
    assertEquals(Optional.empty(), inodeById(20_001));
    assertEquals(Optional.of(g), inode(g.key()));
  }

  @Test
  void childrenAreSortedInUtf8ByteOrder() throws Exception {
    // "\uD83D\uDE00" (U+1F600) sorts before "\uFF21" in UTF-16 but after it in UTF-8: byte order must win.
    List<String> names = List.of("B", "a", "\u00e9", "z", "_", "Z", "aa", "10", "9", "\u00c4", "\u20ac", "\uFF21",
        "\uD83D\uDE00", "a b", "A");
    insertChildren(ROOT_ID, 20_000, names);
    assertEquals(sortedByUtf8Bytes(names), names(children(ROOT_ID, null, 100)));
  }

  @Test
  void childrenPagesWithStartAfterAndLimit() throws Exception {
    List<String> names = List.of("B", "a", "\u00e9", "z", "_", "n1", "n2", "\uD83D\uDE00", "\uFF21", "n10");
    insertChildren(ROOT_ID, 20_000, names);
    List<String> expected = sortedByUtf8Bytes(names);

    List<String> paged = new ArrayList<>();
    String after = null;
    while (true) {
      List<String> page = names(children(ROOT_ID, after, 3));
      assertTrue(page.size() <= 3, "page larger than the limit: " + page);
      if (page.isEmpty()) {
        break;
      }
      paged.addAll(page);
      after = page.get(page.size() - 1);
    }
    assertEquals(expected, paged);
    assertEquals(expected.subList(0, 4), names(children(ROOT_ID, "", 4)));
    assertEquals(List.of("n1", "n10", "n2"), names(children(ROOT_ID, "b", 3)), "startAfter need not exist");
    assertEquals(List.of("\uD83D\uDE00"), names(children(ROOT_ID, "\uFF21", 10)));
  }

  @Test
  void childrenAfterAStartPointAreCountedInByteOrder() throws Exception {
    List<String> names = List.of("B", "a", "\u00e9", "z", "n1", "n2", "\uD83D\uDE00", "\uFF21", "n10");
    insertChildren(ROOT_ID, 20_000, names);
    // a directory spreading its children over partitions: they are counted across them, none of the root's
    insertCommitted(directory(20_100, ROOT_ID, "spread"), file(20_101, 20_100, "x").withLocation(31, 20_100, "x"),
        file(20_102, 20_100, "y").withLocation(32, 20_100, "y"));
    try (Transaction tx = begin()) {
      ReadBatch batch = tx.batch();
      ReadBatch.Result<Long> all = batch.countChildren(ROOT_ID, ROOT_ID, null);
      ReadBatch.Result<Long> fromEmpty = batch.countChildren(ROOT_ID, ROOT_ID, "");
      ReadBatch.Result<Long> afterN1 = batch.countChildren(ROOT_ID, ROOT_ID, "n1");
      ReadBatch.Result<Long> afterFullwidthA = batch.countChildren(ROOT_ID, ROOT_ID, "\uFF21");
      ReadBatch.Result<Long> afterEverything = batch.countChildren(ROOT_ID, ROOT_ID, "\uD83D\uDE00\uD83D\uDE00");
      ReadBatch.Result<Long> spreadAll = batch.countSpreadChildren(20_100, null);
      ReadBatch.Result<Long> spreadAfterX = batch.countSpreadChildren(20_100, "x");
      batch.execute();
      assertEquals(names.size() + 1, all.get(), "the root's own partition: its files and the spreading directory");
      assertEquals(all.get(), fromEmpty.get());
      assertEquals(7, afterN1.get(), "n10, n2, spread, z, \u00e9, \uFF21, U+1F600 in byte order");
      assertEquals(1, afterFullwidthA.get(), "U+1F600 sorts after U+FF21 in UTF-8");
      assertEquals(0, afterEverything.get());
      assertEquals(2, spreadAll.get());
      assertEquals(1, spreadAfterX.get());
    }
  }

  @Test
  void childrenOfOtherDirectoriesAreNotReturned() throws Exception {
    Inode d1 = directory(20_001, ROOT_ID, "d1");
    Inode d2 = directory(20_002, ROOT_ID, "d2");
    Inode inD1 = file(20_010, 20_001, "x");
    Inode inD2 = file(20_011, 20_002, "x");
    // Same parent id, but in another partition: not a child of d1 in d1's partition.
    Inode otherPartition = file(20_012, 20_001, "y").withLocation(20_002, 20_001, "y");
    insertCommitted(d1, d2, inD1, inD2, otherPartition);

    try (Transaction tx = begin()) {
      assertEquals(List.of(inD1), tx.inodes().children(20_001, 20_001, null, 100, LockMode.NONE));
      assertEquals(List.of(inD2), tx.inodes().children(20_002, 20_002, null, 100, LockMode.SHARED));
      assertEquals(List.of(otherPartition),
          tx.inodes().children(20_002, 20_001, null, 100, LockMode.NONE));
      assertEquals(List.of(d1, d2), tx.inodes().children(ROOT_ID, ROOT_ID, null, 100, LockMode.EXCLUSIVE));
      assertEquals(List.of(), tx.inodes().children(20_010, 20_010, null, 100, LockMode.NONE));
    }
  }

  /**
   * A batch of many directories' pages of children, with another read among them (an engine may run a read-only
   * batch's scans side by side): each page is the directory's own, in name order, within its limit, after its start
   * name, as the same reads made one by one answer.
   */
  @Test
  void aBatchOfManyDirectoriesPagesAnswersAsTheReadsOneByOne() throws Exception {
    int directories = 24;
    List<Inode> rows = new ArrayList<>();
    for (int d = 0; d < directories; d++) {
      rows.add(directory(20_100 + d, ROOT_ID, String.format("many%02d", d)));
      for (int c = 0; c < d % 5; c++) {
        rows.add(file(21_000 + d * 10L + c, 20_100 + d, "c" + c));
      }
    }
    insertCommitted(rows.toArray(new Inode[0]));
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        ReadBatch batch = tx.batch();
        List<ReadBatch.Result<List<Inode>>> pages = new ArrayList<>();
        ReadBatch.Result<Optional<Inode>> root = null;
        for (int d = 0; d < directories; d++) {
          long id = 20_100 + d;
          pages.add(batch.children(id, id, d % 2 == 0 ? null : "c0", 3, LockMode.NONE));
          if (d == directories / 2) {
            root = batch.inode(ROOT.key(), LockMode.NONE);
          }
        }
        batch.execute();
        assertEquals(Optional.of(ROOT), root.get());
        for (int d = 0; d < directories; d++) {
          long id = 20_100 + d;
          assertEquals(tx.inodes().children(id, id, d % 2 == 0 ? null : "c0", 3, LockMode.NONE), pages.get(d).get(),
              "directory " + d + (readOnly ? " in a read-only transaction" : ""));
          assertEquals(Math.min(3, d % 2 == 0 ? d % 5 : Math.max(0, d % 5 - 1)), pages.get(d).get().size(),
              "directory " + d);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // write buffering

  @Test
  void writesAreInvisibleToOtherTransactionsUntilCommit() throws Exception {
    Inode kept = file(20_001, ROOT_ID, "kept");
    Inode doomed = file(20_002, ROOT_ID, "doomed");
    insertCommitted(kept, doomed);
    Inode added = file(20_003, ROOT_ID, "added");

    try (Transaction writer = begin(); Transaction reader = begin()) {
      writer.inodes().insert(added);
      writer.inodes().update(kept.withSize(99));
      writer.inodes().delete(doomed.key());

      assertEquals(Optional.empty(), reader.inodes().get(added.key(), LockMode.NONE));
      assertEquals(Optional.of(kept), reader.inodes().get(kept.key(), LockMode.NONE));
      assertEquals(Optional.of(doomed), reader.inodes().get(doomed.key(), LockMode.NONE));

      writer.commit();

      assertEquals(Optional.of(added), reader.inodes().get(added.key(), LockMode.NONE));
      assertEquals(Optional.of(kept.withSize(99)), reader.inodes().get(kept.key(), LockMode.NONE));
      assertEquals(Optional.empty(), reader.inodes().get(doomed.key(), LockMode.NONE));
    }
  }

  @Test
  void rollbackDiscardsBufferedWrites() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    try (Transaction tx = begin()) {
      tx.inodes().insert(file(20_002, ROOT_ID, "g"));
      tx.inodes().update(f.withSize(5));
      tx.leases().put(new Lease("client-1", 1L));
      tx.rollback();
      tx.rollback();
    }
    assertEquals(Optional.empty(), inodeById(20_002));
    assertEquals(Optional.of(f), inode(f.key()));
    try (Transaction tx = begin()) {
      assertEquals(Optional.empty(), tx.leases().get("client-1", LockMode.NONE));
    }
  }

  @Test
  void closeWithoutCommitDiscardsBufferedWrites() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    try (Transaction tx = begin()) {
      tx.inodes().get(f.key(), LockMode.EXCLUSIVE);
      tx.inodes().delete(f.key());
      tx.blocks().insert(new Block(20_001, 1_001, 0, 10, 1_001, BlockState.COMPLETE));
    }
    assertEquals(Optional.of(f), inode(f.key()));
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.blocks().ofFile(20_001));
    }
  }

  @Test
  void insertThenDeleteInOneTransactionLeavesNoRow() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    inTransaction(tx -> {
      tx.inodes().insert(f);
      tx.inodes().delete(f.key());
      tx.leasePaths().insert(new LeasePath("client-1", 20_001));
      tx.leasePaths().delete(new LeasePath("client-1", 20_001));
    });
    assertEquals(Optional.empty(), inode(f.key()));
    assertEquals(Optional.empty(), inodeById(20_001));
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.leasePaths().ofHolder("client-1"));
    }
  }

  @Test
  void deleteThenInsertOfSameKeyReplacesTheRow() throws Exception {
    Inode old = file(20_001, ROOT_ID, "f");
    insertCommitted(old);
    Inode replacement = file(20_002, ROOT_ID, "f").withSize(321);
    inTransaction(tx -> {
      tx.inodes().delete(old.key());
      tx.inodes().insert(replacement);
    });
    assertEquals(Optional.of(replacement), inode(old.key()));
    assertEquals(Optional.empty(), inodeById(20_001));
  }

  @Test
  void moveOntoAFreedKeyCommits() throws Exception {
    // rename /src onto /dst, replacing it: dst's row goes, src's row takes dst's key.
    Inode dst = file(20_001, ROOT_ID, "dst");
    Inode src = file(20_002, ROOT_ID, "src").withSize(55);
    insertCommitted(dst, src);
    Inode moved = src.withLocation(ROOT_ID, ROOT_ID, "dst");
    inTransaction(tx -> {
      tx.inodes().delete(dst.key());
      tx.inodes().delete(src.key());
      tx.inodes().insert(moved);
    });
    assertEquals(Optional.of(moved), inode(dst.key()));
    assertEquals(Optional.empty(), inode(src.key()));
    assertEquals(Optional.empty(), inodeById(20_001));
    assertEquals(Optional.of(moved), inodeById(20_002));
  }

  @Test
  void moveToANewKeyKeepingTheIdCommits() throws Exception {
    Inode dir = directory(20_001, ROOT_ID, "dir");
    Inode f = file(20_002, ROOT_ID, "f");
    insertCommitted(dir, f);
    Inode moved = f.withLocation(20_001, 20_001, "renamed");
    inTransaction(tx -> {
      tx.inodes().delete(f.key());
      tx.inodes().insert(moved);
      tx.inodes().update(dir.withChildrenCount(1));
    });
    assertEquals(Optional.empty(), inode(f.key()));
    assertEquals(Optional.of(moved), inode(moved.key()));
    assertEquals(Optional.of(moved), inodeById(20_002));
    assertEquals(1, inode(dir.key()).orElseThrow().childrenCount());
  }

  @Test
  void repeatedUpdatesInOneTransactionKeepTheLast() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    inTransaction(tx -> {
      tx.inodes().update(f.withSize(1));
      tx.inodes().update(f.withSize(2).withPermission((short) 0600));
      tx.inodes().update(f.withSize(3));
    });
    assertEquals(Optional.of(f.withSize(3)), inode(f.key()));
  }

  @Test
  void updateAfterInsertInOneTransactionStoresTheUpdatedRow() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    inTransaction(tx -> {
      tx.inodes().insert(f);
      tx.inodes().update(f.withSize(8));
    });
    assertEquals(Optional.of(f.withSize(8)), inode(f.key()));
  }

  // ---------------------------------------------------------------------------------------------------------
  // blocks, lookup, replicas

  @Test
  void blocksOfFileAreOrderedByIndex() throws Exception {
    Block b0 = new Block(20_001, 3_000, 0, 100, 1_001, BlockState.COMPLETE);
    Block b1 = new Block(20_001, 1_000, 1, 200, 1_002, BlockState.COMMITTED);
    Block b2 = new Block(20_001, 2_000, 2, 0, 1_003, BlockState.UNDER_CONSTRUCTION);
    Block elsewhere = new Block(20_002, 1_500, 0, 7, 1_004, BlockState.COMPLETE);
    inTransaction(tx -> {
      tx.blocks().insert(b2);
      tx.blocks().insert(elsewhere);
      tx.blocks().insert(b0);
      tx.blocks().insert(b1);
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(b0, b1, b2), tx.blocks().ofFile(20_001));
      assertEquals(Optional.of(b1), tx.blocks().get(new BlockKey(20_001, 1_000)));
      assertEquals(Optional.empty(), tx.blocks().get(new BlockKey(20_002, 1_000)));
      assertEquals(List.of(), tx.blocks().ofFile(20_003));
    }
  }

  @Test
  void blockUpdateAndDeleteApply() throws Exception {
    Block b0 = new Block(20_001, 3_000, 0, 100, 1_001, BlockState.UNDER_CONSTRUCTION);
    Block b1 = new Block(20_001, 3_001, 1, 0, 1_002, BlockState.UNDER_CONSTRUCTION);
    inTransaction(tx -> {
      tx.blocks().insert(b0);
      tx.blocks().insert(b1);
    });
    Block finished = b0.with(4_096, 1_005, BlockState.UNDER_RECOVERY);
    inTransaction(tx -> {
      tx.blocks().update(finished);
      tx.blocks().delete(b1.key());
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(finished), tx.blocks().ofFile(20_001));
    }
  }

  @Test
  void blocksOfSeveralFilesComeInOneListOrderedByInodeThenIndex() throws Exception {
    Block a0 = new Block(20_001, 5_000, 0, 1, 1_001, BlockState.COMPLETE);
    Block a1 = new Block(20_001, 4_000, 1, 1, 1_001, BlockState.COMPLETE);
    Block c0 = new Block(20_003, 3_000, 0, 1, 1_001, BlockState.COMPLETE);
    Block b0 = new Block(20_002, 2_000, 0, 1, 1_001, BlockState.COMPLETE);
    inTransaction(tx -> List.of(c0, a1, b0, a0).forEach(tx.blocks()::insert));
    try (Transaction tx = begin()) {
      assertEquals(List.of(a0, a1, c0), tx.blocks().ofFiles(List.of(20_003L, 20_001L, 20_009L)));
      assertEquals(List.of(), tx.blocks().ofFiles(List.of()));
    }
  }

  @Test
  void blockLookupFindsInodesOfABatchOfBlocks() throws Exception {
    inTransaction(tx -> {
      tx.blockLookup().insert(1_001, 20_001);
      tx.blockLookup().insert(1_002, 20_001);
      tx.blockLookup().insert(1_003, 20_002);
    });
    try (Transaction tx = begin()) {
      assertEquals(Map.of(1_001L, 20_001L, 1_002L, 20_001L, 1_003L, 20_002L),
          tx.blockLookup().inodesOf(List.of(1_003L, 9_999L, 1_001L, 1_002L)));
      assertEquals(Map.of(), tx.blockLookup().inodesOf(List.of()));
    }
    inTransaction(tx -> tx.blockLookup().delete(1_002));
    try (Transaction tx = begin()) {
      assertEquals(Map.of(1_001L, 20_001L), tx.blockLookup().inodesOf(List.of(1_001L, 1_002L)));
    }
  }

  @Test
  void replicasAreFoundByFileByFilesAndByStorage() throws Exception {
    Replica a1 = new Replica(20_001, 1_001, "DS-1");
    Replica a2 = new Replica(20_001, 1_001, "DS-2");
    Replica a3 = new Replica(20_001, 1_002, "DS-1");
    Replica b1 = new Replica(20_002, 1_003, "DS-2");
    Replica c1 = new Replica(20_003, 1_004, "DS-3");
    inTransaction(tx -> List.of(a1, a2, a3, b1, c1).forEach(tx.replicas()::insert));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(a1, a2, a3), Set.copyOf(tx.replicas().ofFile(20_001)));
      assertEquals(3, tx.replicas().ofFile(20_001).size());
      assertEquals(Set.of(a1, a2, a3, b1), Set.copyOf(tx.replicas().ofFiles(List.of(20_002L, 20_001L))));
      assertEquals(4, tx.replicas().ofFiles(List.of(20_002L, 20_001L)).size());
      assertEquals(Set.of(a1, a3), Set.copyOf(tx.replicas().onStorage("DS-1")));
      assertEquals(List.of(), tx.replicas().onStorage("DS-9"));
      assertEquals(List.of(), tx.replicas().ofFiles(List.of()));
    }
    inTransaction(tx -> tx.replicas().delete(a2.key()));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(a1, a3), Set.copyOf(tx.replicas().ofFile(20_001)));
    }
  }

  @Test
  void replicasOfAStoragePageInInodeThenBlockOrder() throws Exception {
    List<Replica> onOne = new ArrayList<>();
    for (long inode = 20_003; inode >= 20_001; inode--) {
      for (long block = 1_003; block >= 1_001; block--) {
        onOne.add(new Replica(inode, block * 10 + inode % 10, "DS-1"));
      }
    }
    Replica elsewhere = new Replica(20_002, 99_999, "DS-2");
    inTransaction(tx -> {
      onOne.forEach(tx.replicas()::insert);
      tx.replicas().insert(elsewhere);
    });
    List<Replica> expected = onOne.stream()
        .sorted(Comparator.comparingLong(Replica::inodeId).thenComparingLong(Replica::blockId)).toList();
    List<Replica> paged = new ArrayList<>();
    try (Transaction tx = begin()) {
      ReplicaKey after = null;
      while (true) {
        List<Replica> page = tx.replicas().onStorage("DS-1", after, 4);
        assertTrue(page.size() <= 4, page.toString());
        paged.addAll(page);
        if (page.size() < 4) {
          break;
        }
        after = page.get(page.size() - 1).key();
      }
      assertEquals(List.of(), tx.replicas().onStorage("DS-9", null, 10));
      assertEquals(List.of(elsewhere), tx.replicas().onStorage("DS-2", null, 10));
      assertEquals(List.of(), tx.replicas().onStorage("DS-2", elsewhere.key(), 10));
    }
    assertEquals(expected, paged);
  }

  @Test
  void insertingTheSameReplicaInTwoTransactionsKeepsOneRow() throws Exception {
    Replica replica = new Replica(20_001, 1_001, "DS-1");
    Replica other = new Replica(20_001, 1_002, "DS-1");
    inTransaction(tx -> tx.replicas().insert(replica));
    inTransaction(tx -> {
      tx.replicas().insert(other);
      tx.replicas().insert(replica);
    });
    try (Transaction tx = begin()) {
      List<Replica> rows = tx.replicas().ofFile(20_001);
      assertEquals(2, rows.size(), rows.toString());
      assertEquals(Set.of(replica, other), Set.copyOf(rows));
    }
  }

  @Test
  void corruptReplicasKeepTheirReasonAndStampAndPageAcrossFiles() throws Exception {
    Replica good = new Replica(20_001, 1_001, "DS-1");
    Replica reported = new Replica(20_001, 1_001, "DS-2").markedCorrupt(CorruptReason.CORRUPTION_REPORTED, 1_001);
    Replica stale = new Replica(20_002, 1_002, "DS-1").markedCorrupt(CorruptReason.GENSTAMP_MISMATCH, 999);
    Replica becomesCorrupt = new Replica(20_003, 1_003, "DS-3");
    inTransaction(tx -> List.of(good, reported, stale, becomesCorrupt).forEach(tx.replicas()::insert));
    Replica marked = becomesCorrupt.markedCorrupt(CorruptReason.SIZE_MISMATCH, 1_003);
    inTransaction(tx -> tx.replicas().update(marked));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(good, reported), Set.copyOf(tx.replicas().ofFile(20_001)));
      assertEquals(List.of(marked), tx.replicas().ofFile(20_003));
      assertEquals(List.of(reported, stale, marked), tx.replicas().corrupt(null, 10), "key order, good rows skipped");
      assertEquals(List.of(reported, stale), tx.replicas().corrupt(null, 2));
      assertEquals(List.of(marked), tx.replicas().corrupt(stale.key(), 2));
      assertEquals(List.of(good), tx.replicas().good(null, 10), "key order across files, corrupt rows skipped");
      assertEquals(List.of(), tx.replicas().good(good.key(), 10));
    }
    // A replica reported again as good does not overwrite a corrupt row: only an update does.
    inTransaction(tx -> tx.replicas().insert(new Replica(20_001, 1_001, "DS-2")));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(good, reported), Set.copyOf(tx.replicas().ofFile(20_001)));
    }
    inTransaction(tx -> tx.replicas().update(new Replica(20_001, 1_001, "DS-2")));
    try (Transaction tx = begin()) {
      assertEquals(List.of(stale, marked), tx.replicas().corrupt(null, 10));
      Replica healed = new Replica(20_001, 1_001, "DS-2");
      assertEquals(List.of(good, healed), tx.replicas().good(null, 10));
      assertEquals(List.of(good), tx.replicas().good(null, 1), "bounded by the limit");
      assertEquals(List.of(healed), tx.replicas().good(good.key(), 1), "strictly after the key given");
    }
  }

  @Test
  void replicasOfAStorageComeWithTheirBlocksStampLengthAndState() throws Exception {
    Block complete = new Block(20_001, 1_001, 0, 4_096, 1_001, BlockState.COMPLETE);
    Block open = new Block(20_002, 1_002, 0, 10, 1_005, BlockState.UNDER_CONSTRUCTION);
    Replica onComplete = new Replica(20_001, 1_001, "DS-1");
    Replica onOpen = new Replica(20_002, 1_002, "DS-1").markedCorrupt(CorruptReason.GENSTAMP_MISMATCH, 1_004);
    Replica orphan = new Replica(20_003, 1_003, "DS-1");
    inTransaction(tx -> {
      tx.blocks().insert(complete);
      tx.blocks().insert(open);
      List.of(onComplete, onOpen, orphan, new Replica(20_001, 1_001, "DS-2")).forEach(tx.replicas()::insert);
    });
    try (Transaction tx = begin()) {
      Map<Long, ReplicaWithBlock> byBlock = tx.replicas().onStorageWithBlocks("DS-1").stream()
          .collect(Collectors.toMap(r -> r.replica().blockId(), r -> r));
      assertEquals(Set.of(1_001L, 1_002L, 1_003L), byBlock.keySet());
      assertEquals(new ReplicaWithBlock(onComplete, 1_001, 4_096, BlockState.COMPLETE), byBlock.get(1_001L));
      assertEquals(new ReplicaWithBlock(onOpen, 1_005, 10, BlockState.UNDER_CONSTRUCTION), byBlock.get(1_002L));
      assertNull(byBlock.get(1_003L).blockState(), "a replica whose block row is gone comes without a state");
      assertEquals(List.of(), tx.replicas().onStorageWithBlocks("DS-9"));
    }
  }

  @Test
  void replicaBucketsFollowEveryWriteOfReplicasAndBlocksWhateverTheirOrder() throws Exception {
    // Blocks 16,384 apart share a bucket; the others spread. Seeded: a failure replays. The order of the writes
    // across transactions is random (replicas before their block, blocks changed under their replicas); within one
    // transaction it is the order the engine sends them in.
    long[] blockIds = {7, 7 + ReplicaBuckets.COUNT, 7 + 2L * ReplicaBuckets.COUNT, 8, 9, 1_073_741_825L};
    List<String> storages = List.of("DS-1", "DS-2", "DS-3");
    Random random = new Random(20261127);
    Map<Long, Block> blocks = new HashMap<>(); // by block id, as written
    Map<ReplicaKey, Replica> replicas = new HashMap<>();
    BlockState[] states = BlockState.values();
    for (int round = 0; round < 60; round++) {
      int writes = 1 + random.nextInt(6);
      inTransaction(tx -> {
        for (int w = 0; w < writes; w++) {
          long blockId = blockIds[random.nextInt(blockIds.length)];
          Block block = blocks.get(blockId);
          int choice = random.nextInt(6);
          if (block == null) {
            // a new block (maybe of a file whose replicas, left by a concat, are already recorded)
            Block created = new Block(20_000 + random.nextInt(2), blockId, 0, random.nextInt(3), 1_000
                + random.nextInt(3), states[random.nextInt(states.length)]);
            tx.blocks().insert(created);
            blocks.put(blockId, created);
          } else if (choice == 0) {
            Block changed = block.with(random.nextInt(3), 1_000 + random.nextInt(3),
                states[random.nextInt(states.length)]);
            tx.blocks().update(changed);
            blocks.put(blockId, changed);
          } else if (choice == 1) {
            tx.blocks().delete(block.key());
            blocks.remove(blockId);
          } else {
            ReplicaKey key = new ReplicaKey(block.inodeId(), blockId, storages.get(random.nextInt(storages.size())));
            Replica recorded = replicas.get(key);
            if (recorded == null) {
              Replica replica = new Replica(key.inodeId(), key.blockId(), key.storageId());
              tx.replicas().insert(replica);
              replicas.put(key, replica);
            } else if (choice == 2) {
              tx.replicas().delete(key);
              replicas.remove(key);
            } else {
              Replica flipped = recorded.corrupt() ? new Replica(key.inodeId(), key.blockId(), key.storageId())
                  : recorded.markedCorrupt(CorruptReason.GENSTAMP_MISMATCH, 999);
              tx.replicas().update(flipped);
              replicas.put(key, flipped);
            }
          }
        }
        if (random.nextInt(4) == 0) {
          // a fold inside a writing transaction (of earlier transactions' changes: this one's writes go at commit)
          tx.replicas().foldBucketChanges(1 + random.nextInt(4));
        }
      });
      if (random.nextInt(3) == 0) {
        int limit = 1 + random.nextInt(8);
        inTransaction(tx -> tx.replicas().foldBucketChanges(limit)); // some of the changes folded, some not
      }
      try (Transaction tx = begin()) {
        for (String storage : storages) {
          ReplicaBuckets expected = new ReplicaBuckets();
          for (ReplicaWithBlock stored : tx.replicas().onStorageWithBlocks(storage)) {
            if (!stored.replica().corrupt() && stored.blockState() == BlockState.COMPLETE) {
              expected.add(stored.replica().blockId(), stored.blockGenerationStamp(), stored.blockNumBytes());
            } else {
              expected.addUnmatchable(stored.replica().blockId());
            }
          }
          assertEquals(expected.buckets(), tx.replicas().buckets(storage), "buckets of " + storage + ", round "
              + round);
        }
      }
    }
  }

  @Test
  void foldingBucketChangesMovesThemInBoundedBatchesAndLeavesTheBucketsAsTheyWere() throws Exception {
    inTransaction(tx -> {
      for (long blockId = 1; blockId <= 5; blockId++) {
        tx.blocks().insert(new Block(20_001, blockId, 0, 10, 1_001, BlockState.COMPLETE));
        tx.replicas().insert(new Replica(20_001, blockId, "DS-1"));
      }
    });
    inTransaction(tx -> tx.replicas().delete(new ReplicaKey(20_001, 5, "DS-1")));
    Map<Integer, ReplicaBuckets.Bucket> before;
    try (Transaction tx = begin()) {
      before = tx.replicas().buckets("DS-1");
    }
    assertEquals(Set.of(1, 2, 3, 4), before.keySet());
    int[] folded = new int[3];
    inTransaction(tx -> folded[0] = tx.replicas().foldBucketChanges(2));
    inTransaction(tx -> folded[1] = tx.replicas().foldBucketChanges(1_000));
    inTransaction(tx -> folded[2] = tx.replicas().foldBucketChanges(1_000));
    if (recordsBucketChangesApart()) {
      assertEquals(2, folded[0], "a fold moves no more than its limit");
      assertTrue(folded[1] > 0 && folded[1] < 1_000, "the rest moved by the second fold: " + folded[1]);
    } else {
      assertEquals(List.of(0, 0), List.of(folded[0], folded[1]), "an engine keeping no changes apart folds none");
    }
    assertEquals(0, folded[2], "nothing is left after a fold that moved fewer than its limit");
    try (Transaction tx = begin()) {
      assertEquals(before, tx.replicas().buckets("DS-1"));
    }
    assertThrows(IllegalArgumentException.class, () -> inTransaction(tx -> tx.replicas().foldBucketChanges(0)));
  }

  @Test
  void replicasOfSomeBucketsOfAStorageComeWithTheirBlocks() throws Exception {
    long sameBucket = 5 + ReplicaBuckets.COUNT;
    inTransaction(tx -> {
      for (long blockId : List.of(5L, sameBucket, 6L)) {
        tx.blocks().insert(new Block(20_001, blockId, 0, 10, 1_001, BlockState.COMPLETE));
        tx.replicas().insert(new Replica(20_001, blockId, "DS-1"));
        tx.replicas().insert(new Replica(20_001, blockId, "DS-2"));
      }
    });
    try (Transaction tx = begin()) {
      assertEquals(Set.of(5L, sameBucket), tx.replicas().onStorageWithBlocks("DS-1", List.of(5)).stream()
          .map(r -> r.replica().blockId()).collect(Collectors.toSet()));
      assertEquals(List.of(), tx.replicas().onStorageWithBlocks("DS-1", List.of()));
      assertEquals(Set.of(5, 6), tx.replicas().buckets("DS-1").keySet());
      assertEquals(2, tx.replicas().buckets("DS-1").get(5).replicas());
      assertEquals(ReplicaBuckets.hash(5, 1_001, 10) ^ ReplicaBuckets.hash(sameBucket, 1_001, 10),
          tx.replicas().buckets("DS-1").get(5).hash());
    }
  }

  @Test
  void blockCensusCountsCompleteBlocksAndThoseWithGoodReplicasOnGivenStorages() throws Exception {
    inTransaction(tx -> {
      tx.blocks().insert(new Block(20_004, -20_004, 0, 10, 1_005, BlockState.COMPLETE)); // in the database: not counted
      tx.blocks().insert(new Block(20_001, 1_001, 0, 10, 1_001, BlockState.COMPLETE));
      tx.blocks().insert(new Block(20_001, 1_002, 1, 10, 1_002, BlockState.COMPLETE));
      tx.blocks().insert(new Block(20_002, 1_003, 0, 10, 1_003, BlockState.COMPLETE));
      tx.blocks().insert(new Block(20_003, 1_004, 0, 10, 1_004, BlockState.UNDER_CONSTRUCTION));
      tx.replicas().insert(new Replica(20_001, 1_001, "DS-1"));
      tx.replicas().insert(new Replica(20_001, 1_001, "DS-2"));
      tx.replicas().insert(new Replica(20_001, 1_002, "DS-2"));
      tx.replicas().insert(new Replica(20_002, 1_003, "DS-1").markedCorrupt(CorruptReason.SIZE_MISMATCH, 1_003));
      tx.replicas().insert(new Replica(20_003, 1_004, "DS-1"));
    });
    BlockCensus census = store.blockCensus();
    assertEquals(3, census.completeBlocks());
    assertEquals(1, census.completeBlocksWithReplicasOn(List.of("DS-1"), 1), "corrupt and open blocks count not");
    assertEquals(2, census.completeBlocksWithReplicasOn(List.of("DS-1", "DS-2"), 1));
    assertEquals(1, census.completeBlocksWithReplicasOn(List.of("DS-1", "DS-2"), 2));
    assertEquals(0, census.completeBlocksWithReplicasOn(List.of(), 1));
  }

  @Test
  void namespaceCensusCountsInodesByKindAndBlocksByPlace() throws Exception {
    Optional<NamespaceCensus> census = store.capability(NamespaceCensus.class);
    assumeTrue(census.isPresent(), () -> store.describe() + " counts no namespace");
    NamespaceCensus.Counts empty = census.get().count();
    assertEquals(new NamespaceCensus.Counts(1, 0, 0, 0, 0), empty, "a new namespace: its root");
    inTransaction(tx -> {
      tx.inodes().insert(directory(20_001, ROOT_ID, "d"));
      tx.inodes().insert(file(20_002, 20_001, "big"));
      tx.inodes().insert(file(20_003, 20_001, "small"));
      tx.inodes().insert(Inode.builder().id(20_004).partitionId(ROOT_ID).parentId(ROOT_ID).name("link")
          .permission((short) 0777).owner("u").group("g").symlinkTarget("/d").build());
      tx.blocks().insert(new Block(20_002, 1_001, 0, 10, 1_001, BlockState.COMPLETE));
      tx.blocks().insert(new Block(20_002, 1_002, 1, 10, 1_002, BlockState.UNDER_CONSTRUCTION));
      tx.blocks().insert(new Block(20_003, -20_003, 0, 10, 1_003, BlockState.COMPLETE)); // in the database
    });
    NamespaceCensus.Counts counts = census.get().count();
    assertEquals(new NamespaceCensus.Counts(2, 2, 1, 2, 1), counts);
    assertEquals(5, counts.inodes());
  }

  @Test
  void idCountersAdvanceButNeverGoBackAndAllocationContinuesPastThem() throws Exception {
    long first = store.allocateIds(IdKind.BLOCK, 10).first();
    try (Transaction tx = begin()) {
      assertEquals(first + 10, tx.idCounters().next(IdKind.BLOCK, LockMode.EXCLUSIVE));
    }
    inTransaction(tx -> {
      tx.idCounters().advanceTo(IdKind.BLOCK, first + 1_000);
      tx.idCounters().advanceTo(IdKind.BLOCK, first + 500); // the larger of two advances wins
      tx.idCounters().advanceTo(IdKind.GENERATION_STAMP, 5); // below the counter: no change
    });
    assertEquals(first + 1_000, store.allocateIds(IdKind.BLOCK, 1).first());
    assertEquals(IdKind.GENERATION_STAMP.firstValue(), store.allocateIds(IdKind.GENERATION_STAMP, 1).first());
    try (Transaction tx = begin()) {
      tx.idCounters().advanceTo(IdKind.BLOCK, first + 5_000);
      tx.rollback();
    }
    assertEquals(first + 1_001, store.allocateIds(IdKind.BLOCK, 1).first(), "a rolled back advance changes nothing");
  }

  @Test
  void futureBlocksAreRecordedOnceAndForgottenAllTogether() throws Exception {
    FutureBlock a = new FutureBlock(5_000, 2_000, 100, "dn-1", 1L);
    FutureBlock b = new FutureBlock(5_001, 2_001, 200, "dn-2", 2L);
    inTransaction(tx -> {
      tx.futureBlocks().insert(a);
      tx.futureBlocks().insert(b);
    });
    inTransaction(tx -> tx.futureBlocks().insert(new FutureBlock(5_000, 2_000, 100, "dn-3", 3L)));
    try (Transaction tx = begin()) {
      assertEquals(Map.of(5_000L, a, 5_001L, b), tx.futureBlocks().get(List.of(5_000L, 5_001L, 5_002L)));
      assertEquals(Map.of(), tx.futureBlocks().get(List.of()));
    }
    inTransaction(tx -> tx.futureBlocks().deleteAll());
    try (Transaction tx = begin()) {
      assertEquals(Map.of(), tx.futureBlocks().get(List.of(5_000L, 5_001L)));
    }
  }

  @Test
  void ucReplicasInsertUpdateAndDelete() throws Exception {
    UcReplica r1 = new UcReplica(20_001, 1_001, "DS-1", UcReplicaState.EXPECTED, 1_001);
    UcReplica r2 = new UcReplica(20_001, 1_001, "DS-2", UcReplicaState.EXPECTED, 1_001);
    UcReplica r3 = new UcReplica(20_002, 1_002, "DS-1", UcReplicaState.RECEIVING, 1_005);
    inTransaction(tx -> List.of(r1, r2, r3).forEach(tx.ucReplicas()::insert));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(r1, r2), Set.copyOf(tx.ucReplicas().ofFile(20_001)));
      assertEquals(Set.of(r1, r2, r3), Set.copyOf(tx.ucReplicas().ofFiles(List.of(20_001L, 20_002L))));
    }
    UcReplica finalized = new UcReplica(20_001, 1_001, "DS-1", UcReplicaState.FINALIZED, 1_003);
    inTransaction(tx -> {
      tx.ucReplicas().update(finalized);
      tx.ucReplicas().delete(r2.key());
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(finalized), tx.ucReplicas().ofFile(20_001));
      assertEquals(List.of(r3), tx.ucReplicas().ofFile(20_002));
    }
  }

  @Test
  void aBlocksReplicaRowsAreInsertedAndDeletedTogetherAmongOtherRows() throws Exception {
    Replica kept = new Replica(20_001, 1_001, "DS-1");
    inTransaction(tx -> tx.replicas().insert(kept));
    List<Replica> block = List.of(kept, new Replica(20_001, 1_001, "DS-2"),
        new Replica(20_001, 1_001, "DS-3").markedCorrupt(CorruptReason.SIZE_MISMATCH, 1_007));
    Replica other = new Replica(20_002, 1_002, "DS-1");
    inTransaction(tx -> { // one row already there: inserting it again changes nothing
      block.forEach(tx.replicas()::insert);
      tx.replicas().insert(other);
    });
    try (Transaction tx = begin()) {
      assertEquals(Set.copyOf(block), Set.copyOf(tx.replicas().ofFile(20_001)));
      assertEquals(List.of(other), tx.replicas().ofFile(20_002));
    }
    inTransaction(tx -> {
      tx.replicas().delete(block.get(1).key());
      tx.replicas().delete(block.get(2).key());
      tx.replicas().delete(new ReplicaKey(20_001, 1_001, "DS-9")); // absent
      tx.replicas().delete(other.key());
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(kept), tx.replicas().ofFile(20_001));
      assertEquals(List.of(), tx.replicas().ofFile(20_002));
    }

    List<UcReplica> pipeline = List.of(new UcReplica(20_003, 1_003, "DS-1", UcReplicaState.EXPECTED, 1_003),
        new UcReplica(20_003, 1_003, "DS-2", UcReplicaState.EXPECTED, 1_003),
        new UcReplica(20_003, 1_003, "DS-3", UcReplicaState.RECEIVING, 1_003));
    inTransaction(tx -> pipeline.forEach(tx.ucReplicas()::insert));
    inTransaction(tx -> pipeline.subList(0, 2).forEach(r -> tx.ucReplicas().delete(r.key())));
    try (Transaction tx = begin()) {
      assertEquals(List.of(pipeline.get(2)), tx.ucReplicas().ofFile(20_003));
    }

    InvalidatedBlock scheduled = new InvalidatedBlock("dn-1", 1_004, 1_004, 10);
    inTransaction(tx -> tx.invalidations().insert(scheduled));
    List<InvalidatedBlock> deletedFile = List.of(scheduled, new InvalidatedBlock("dn-2", 1_004, 1_004, 10),
        new InvalidatedBlock("dn-3", 1_004, 1_004, 10));
    inTransaction(tx -> deletedFile.forEach(tx.invalidations()::insert));
    try (Transaction tx = begin()) {
      assertEquals(Set.copyOf(deletedFile), Set.copyOf(tx.invalidations().ofBlock(1_004, List.of("dn-1", "dn-2",
          "dn-3"))));
    }
  }

  @Test
  void blockRecoveryIdRoundTripsThroughInsertUpdateAndBatchReads() throws Exception {
    Block open = new Block(20_001, 3_000, 0, 0, 1_001, BlockState.UNDER_CONSTRUCTION);
    assertEquals(0, open.recoveryId(), "a block starts with no recovery issued");
    Block recovering = open.underRecovery(1_042);
    inTransaction(tx -> tx.blocks().insert(new Block(20_002, 3_001, 0, 5, 1_002, BlockState.UNDER_RECOVERY, 1_043)));
    inTransaction(tx -> tx.blocks().insert(open));
    inTransaction(tx -> tx.blocks().update(recovering));
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(recovering), tx.blocks().get(open.key()));
      assertEquals(1_042, tx.blocks().ofFile(20_001).get(0).recoveryId());
      assertEquals(List.of(1_042L, 1_043L), tx.blocks().ofFiles(List.of(20_001L, 20_002L)).stream()
          .map(Block::recoveryId).toList());
      ReadBatch batch = tx.batch();
      ReadBatch.Result<List<Block>> read = batch.blocksOfFile(20_001);
      batch.execute();
      assertEquals(List.of(recovering), read.get());
    }
    Block recovered = recovering.with(4_096, 1_042, BlockState.COMPLETE);
    assertEquals(1_042, recovered.recoveryId(), "with() keeps the recovery id");
    inTransaction(tx -> tx.blocks().update(recovered));
    try (Transaction tx = begin()) {
      assertEquals(List.of(recovered), tx.blocks().ofFile(20_001));
    }
  }

  @Test
  void blockTruncateLengthRoundTripsThroughInsertUpdateAndBatchReads() throws Exception {
    Block complete = new Block(20_001, 3_000, 0, 4_096, 1_001, BlockState.COMPLETE);
    assertFalse(complete.truncating(), "a block starts with no truncate");
    assertEquals(Block.NO_TRUNCATE, complete.truncateLength());
    inTransaction(tx -> tx.blocks().insert(complete));
    Block truncating = complete.truncatingTo(1_000);
    assertEquals(BlockState.UNDER_RECOVERY, truncating.state());
    assertEquals(4_096, truncating.numBytes(), "the block keeps its length until the datanodes cut it");
    inTransaction(tx -> tx.blocks().update(truncating));
    Block otherFile = new Block(20_002, 3_001, 0, 50, 1_002, BlockState.UNDER_RECOVERY, 1_043, 7);
    inTransaction(tx -> tx.blocks().insert(otherFile));
    Block issued = truncating.underRecovery(1_044);
    assertEquals(1_000, issued.truncateLength(), "issuing a recovery id keeps the truncate length");
    inTransaction(tx -> tx.blocks().update(issued));
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(issued), tx.blocks().get(complete.key()));
      assertEquals(List.of(1_000L, 7L), tx.blocks().ofFiles(List.of(20_001L, 20_002L)).stream()
          .map(Block::truncateLength).toList());
      ReadBatch batch = tx.batch();
      ReadBatch.Result<List<Block>> read = batch.blocksOfFile(20_002);
      batch.execute();
      assertEquals(List.of(otherFile), read.get());
    }
    Block cut = issued.with(1_000, 1_044, BlockState.COMPLETE).withoutTruncate();
    inTransaction(tx -> tx.blocks().update(cut));
    try (Transaction tx = begin()) {
      assertEquals(List.of(cut), tx.blocks().ofFile(20_001));
      assertEquals(Block.NO_TRUNCATE, tx.blocks().ofFile(20_001).get(0).truncateLength());
    }
    assertThrows(IllegalArgumentException.class, () -> complete.truncatingTo(4_096),
        "a truncate inside a block leaves it shorter");
  }

  // ---------------------------------------------------------------------------------------------------------
  // ACL entries

  private static InodeAclEntry acl(long inodeId, int position, InodeAclEntry.Scope scope, InodeAclEntry.Type type,
      String name, int permission) {
    return new InodeAclEntry(inodeId, position, scope, type, name, permission);
  }

  private static List<InodeAclEntry> sampleAcl(long inodeId) {
    return List.of(
        acl(inodeId, 0, InodeAclEntry.Scope.ACCESS, InodeAclEntry.Type.USER, "bob", 6),
        acl(inodeId, 1, InodeAclEntry.Scope.ACCESS, InodeAclEntry.Type.GROUP, null, 5),
        acl(inodeId, 2, InodeAclEntry.Scope.ACCESS, InodeAclEntry.Type.GROUP, "staff", 4),
        acl(inodeId, 3, InodeAclEntry.Scope.DEFAULT, InodeAclEntry.Type.USER, null, 7),
        acl(inodeId, 4, InodeAclEntry.Scope.DEFAULT, InodeAclEntry.Type.MASK, null, 0),
        acl(inodeId, 5, InodeAclEntry.Scope.DEFAULT, InodeAclEntry.Type.OTHER, null, 1));
  }

  @Test
  void aclEntriesReadBackPerInodeInPositionOrder() throws Exception {
    List<InodeAclEntry> first = sampleAcl(20_001);
    List<InodeAclEntry> second = List.of(acl(20_002, 0, InodeAclEntry.Scope.ACCESS, InodeAclEntry.Type.GROUP, null,
        7));
    inTransaction(tx -> {
      List<InodeAclEntry> shuffled = new ArrayList<>(first);
      Collections.reverse(shuffled);
      tx.acls().replace(20_001, shuffled);
      tx.acls().replace(20_002, second);
    });
    try (Transaction tx = begin()) {
      Map<Long, List<InodeAclEntry>> read = tx.acls().ofInodes(List.of(20_002L, 20_001L, 20_003L));
      assertEquals(Map.of(20_001L, first, 20_002L, second), read, "inodes without entries are absent");
      assertEquals(Map.of(), tx.acls().ofInodes(List.of()));
    }
  }

  @Test
  void aclReplaceRewritesTheWholeAclAndDeleteAllRemovesIt() throws Exception {
    inTransaction(tx -> {
      tx.acls().replace(20_001, sampleAcl(20_001));
      tx.acls().replace(20_002, sampleAcl(20_002));
    });
    List<InodeAclEntry> shorter = List.of(acl(20_001, 0, InodeAclEntry.Scope.ACCESS, InodeAclEntry.Type.USER,
        "carol", 1));
    inTransaction(tx -> {
      tx.acls().replace(20_001, shorter);
      tx.acls().deleteAll(20_002);
    });
    try (Transaction tx = begin()) {
      assertEquals(Map.of(20_001L, shorter), tx.acls().ofInodes(List.of(20_001L, 20_002L)));
    }
  }

  @Test
  void aclWritesAreBufferedLastOneWinsAndRollbackDiscards() throws Exception {
    inTransaction(tx -> {
      tx.acls().replace(20_001, sampleAcl(20_001));
      tx.acls().deleteAll(20_001);
      tx.acls().replace(20_001, sampleAcl(20_001).subList(0, 2));
    });
    try (Transaction tx = begin()) {
      tx.acls().deleteAll(20_001);
      tx.rollback();
    }
    try (Transaction tx = begin()) {
      assertEquals(Map.of(20_001L, sampleAcl(20_001).subList(0, 2)), tx.acls().ofInodes(List.of(20_001L)));
    }
  }

  @Test
  void aclEntriesOfAnotherInodeAreRefused() throws Exception {
    try (Transaction tx = begin()) {
      assertThrows(IllegalArgumentException.class, () -> tx.acls().replace(20_001, sampleAcl(20_002)));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // leases, datanodes, storages, invalidations

  @Test
  void leasesInsertGetUpdateAndDelete() throws Exception {
    inTransaction(tx -> {
      tx.leases().put(new Lease("client-1", 100L));
      tx.leases().put(new Lease("client-2", 200L));
    });
    inTransaction(tx -> {
      assertEquals(Optional.of(new Lease("client-1", 100L)), tx.leases().get("client-1", LockMode.EXCLUSIVE));
      tx.leases().put(new Lease("client-1", 150L));
      tx.leases().delete("client-2");
    });
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(new Lease("client-1", 150L)), tx.leases().get("client-1", LockMode.SHARED));
      assertEquals(Optional.empty(), tx.leases().get("client-2", LockMode.NONE));
    }
  }

  @Test
  void concurrentFirstLeasesOfOneHolderBothCommit() throws Exception {
    try (Transaction first = begin(); Transaction second = begin()) {
      first.leases().put(new Lease("new-client", 10L));
      second.leases().put(new Lease("new-client", 20L));
      first.commit();
      second.commit();
    }
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(new Lease("new-client", 20L)), tx.leases().get("new-client", LockMode.SHARED));
    }
  }

  @Test
  void leaseDeletedThenPutInOneTransactionExists() throws Exception {
    inTransaction(tx -> tx.leases().put(new Lease("client-1", 1L)));
    inTransaction(tx -> {
      tx.leases().delete("client-1");
      tx.leases().put(new Lease("client-1", 2L));
    });
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(new Lease("client-1", 2L)), tx.leases().get("client-1", LockMode.SHARED));
    }
  }

  @Test
  void leasesRenewedBeforeATimeArePagedOldestFirst() throws Exception {
    inTransaction(tx -> {
      tx.leases().put(new Lease("c", 300L));
      tx.leases().put(new Lease("a", 100L));
      tx.leases().put(new Lease("b", 100L));
      tx.leases().put(new Lease("d", 400L));
      tx.leases().put(new Lease("fresh", 5_000L));
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(new Lease("a", 100L), new Lease("b", 100L)), tx.leases().renewedBefore(1_000, null, 2));
      assertEquals(List.of(new Lease("c", 300L), new Lease("d", 400L)),
          tx.leases().renewedBefore(1_000, new Lease("b", 100L), 2));
      assertEquals(List.of(new Lease("b", 100L), new Lease("c", 300L), new Lease("d", 400L)),
          tx.leases().renewedBefore(1_000, new Lease("a", 100L), 10));
      assertEquals(List.of(), tx.leases().renewedBefore(1_000, new Lease("d", 400L), 10));
      assertEquals(List.of(new Lease("a", 100L), new Lease("b", 100L)), tx.leases().renewedBefore(300, null, 10),
          "the bound is exclusive");
      assertEquals(List.of(), tx.leases().renewedBefore(100, null, 10));
    }
    inTransaction(tx -> tx.leases().put(new Lease("a", 6_000L)));
    try (Transaction tx = begin()) {
      assertEquals(List.of(new Lease("b", 100L)), tx.leases().renewedBefore(200, null, 10), "a renewed lease moves");
    }
  }

  @Test
  void leasePathsOfAHolderArePagedByInodeId() throws Exception {
    inTransaction(tx -> {
      tx.leasePaths().insert(new LeasePath("client-1", 20_003));
      tx.leasePaths().insert(new LeasePath("client-1", 20_001));
      tx.leasePaths().insert(new LeasePath("client-1", 20_002));
      tx.leasePaths().insert(new LeasePath("client-2", 20_000));
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(new LeasePath("client-1", 20_001), new LeasePath("client-1", 20_002)),
          tx.leasePaths().ofHolder("client-1", Long.MIN_VALUE, 2));
      assertEquals(List.of(new LeasePath("client-1", 20_003)), tx.leasePaths().ofHolder("client-1", 20_002, 2));
      assertEquals(List.of(), tx.leasePaths().ofHolder("client-1", 20_003, 2));
      assertEquals(List.of(new LeasePath("client-2", 20_000)), tx.leasePaths().ofHolder("client-2", 0, 1));
      assertEquals(List.of(), tx.leasePaths().ofHolder("client-9", Long.MIN_VALUE, 10));
    }
  }

  @Test
  void leasePathsAreListedPerHolder() throws Exception {
    inTransaction(tx -> {
      tx.leasePaths().insert(new LeasePath("client-1", 20_001));
      tx.leasePaths().insert(new LeasePath("client-1", 20_002));
      tx.leasePaths().insert(new LeasePath("client-2", 20_003));
    });
    try (Transaction tx = begin()) {
      assertEquals(Set.of(new LeasePath("client-1", 20_001), new LeasePath("client-1", 20_002)),
          Set.copyOf(tx.leasePaths().ofHolder("client-1")));
      assertEquals(List.of(), tx.leasePaths().ofHolder("client-9"));
    }
    inTransaction(tx -> tx.leasePaths().delete(new LeasePath("client-1", 20_001)));
    try (Transaction tx = begin()) {
      assertEquals(List.of(new LeasePath("client-1", 20_002)), tx.leasePaths().ofHolder("client-1"));
      assertEquals(List.of(new LeasePath("client-2", 20_003)), tx.leasePaths().ofHolder("client-2"));
    }
  }

  @Test
  void datanodesAllGetUpdateAndDelete() throws Exception {
    DatanodeRecord dn1 = datanode("dn-1", 1);
    DatanodeRecord dn2 = datanode("dn-2", 2);
    DatanodeRecord dn3 = datanode("dn-3", 3);
    inTransaction(tx -> List.of(dn2, dn1, dn3).forEach(tx.datanodes()::insert));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(dn1, dn2, dn3), Set.copyOf(tx.datanodes().all()));
      assertEquals(3, tx.datanodes().all().size());
      assertEquals(Optional.of(dn2), tx.datanodes().get("dn-2", LockMode.NONE));
      assertEquals(Optional.empty(), tx.datanodes().get("dn-9", LockMode.SHARED));
    }
    DatanodeRecord beat = dn1.withHeartbeat(9_999L, 1_000L, 100L, 800L, 90L, 100L, 4);
    inTransaction(tx -> {
      tx.datanodes().get("dn-1", LockMode.EXCLUSIVE).orElseThrow();
      tx.datanodes().update(beat);
      tx.datanodes().delete("dn-3");
    });
    try (Transaction tx = begin()) {
      assertEquals(Set.of(beat, dn2), Set.copyOf(tx.datanodes().all()));
      assertEquals(Optional.of(beat), tx.datanodes().get("dn-1", LockMode.NONE));
    }
  }

  @Test
  void concurrentInsertsOfOneDatanodeBothCommitAndTheLastWins() throws Exception {
    DatanodeRecord first = datanode("dn-race", 1);
    DatanodeRecord second = datanode("dn-race", 2);
    try (Transaction one = begin(); Transaction two = begin()) {
      one.datanodes().insert(first);
      two.datanodes().insert(second);
      one.commit();
      two.commit();
    }
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(second), tx.datanodes().get("dn-race", LockMode.NONE));
    }
  }

  @Test
  void namenodesAreListedInIdOrderAndUpdatedInPlace() throws Exception {
    NamenodeRecord nn3 = new NamenodeRecord(3, 0, "127.0.0.1:3003", "127.0.0.1:4003", 2, 100, 100);
    NamenodeRecord nn1 = new NamenodeRecord(1, 5, "127.0.0.1:3001", "", 0, 50, 60);
    NamenodeRecord nn2 = new NamenodeRecord(2, 7, "127.0.0.1:3002", "127.0.0.1:4002", 1, 70, 80);
    inTransaction(tx -> List.of(nn3, nn1, nn2).forEach(tx.namenodes()::insert));
    try (Transaction tx = begin()) {
      assertEquals(List.of(nn1, nn2, nn3), tx.namenodes().all());
      assertEquals(Optional.of(nn2), tx.namenodes().get(2, LockMode.SHARED));
      assertEquals(Optional.empty(), tx.namenodes().get(9, LockMode.NONE));
    }
    inTransaction(tx -> {
      tx.namenodes().update(tx.namenodes().get(1, LockMode.EXCLUSIVE).orElseThrow().withRound(6, 90));
      tx.namenodes().delete(2);
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(nn1.withRound(6, 90), nn3), tx.namenodes().all());
    }
  }

  @Test
  void variablesAreCreatedByTheFirstPutAndReplacedByLaterOnes() throws Exception {
    inTransaction(tx -> {
      assertEquals(OptionalLong.empty(), tx.variables().getLong("leader.term", LockMode.EXCLUSIVE));
      tx.variables().putLong("leader.term", 1);
      tx.variables().putLong("leader.term", 2); // the last put of a transaction wins
    });
    inTransaction(tx -> tx.variables().putLong("leader.round-ms", 2_000));
    try (Transaction tx = begin()) {
      assertEquals(OptionalLong.of(2), tx.variables().getLong("leader.term", LockMode.SHARED));
      assertEquals(OptionalLong.of(2_000), tx.variables().getLong("leader.round-ms", LockMode.NONE));
    }
    try (Transaction tx = store.beginReadOnly()) {
      assertEquals(OptionalLong.of(2), tx.variables().getLong("leader.term", LockMode.SHARED));
    }
  }

  @Test
  void aSharedReadOfAVariableHoldsOffItsWriterUntilTheReaderEnds() throws Exception {
    // How leader work is fenced: a fenced transaction share-locks the term; a new leader's increment waits.
    inTransaction(tx -> tx.variables().putLong("leader.term", 1));
    CountDownLatch writerStarted = new CountDownLatch(1);
    Future<Long> writer;
    try (Transaction fenced = begin()) {
      assertEquals(OptionalLong.of(1), fenced.variables().getLong("leader.term", LockMode.SHARED));
      writer = threads.submit(retryingTransient(() -> {
        try (Transaction tx = begin()) {
          writerStarted.countDown();
          long term = tx.variables().getLong("leader.term", LockMode.EXCLUSIVE).orElseThrow();
          tx.variables().putLong("leader.term", term + 1);
          tx.commit();
          return term + 1;
        }
      }));
      assertTrue(writerStarted.await(10, SECONDS));
      Thread.sleep(200);
      assertFalse(writer.isDone(), "the term changed while a transaction held it shared");
      fenced.commit();
    }
    assertEquals(2L, writer.get(10, SECONDS));
  }

  @Test
  void storagesPerDatanodeAndAll() throws Exception {
    StorageRecord s1 = new StorageRecord("dn-1", "DS-1", "DISK", false, 1_000, 10, 900, 5);
    StorageRecord s2 = new StorageRecord("dn-1", "DS-2", "SSD", false, 2_000, 20, 1_900, 6);
    StorageRecord s3 = new StorageRecord("dn-2", "DS-3", "ARCHIVE", true, 3_000, 30, 2_900, 7);
    inTransaction(tx -> List.of(s3, s2, s1).forEach(tx.storages()::insert));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(s1, s2), Set.copyOf(tx.storages().ofDatanode("dn-1")));
      assertEquals(List.of(s3), tx.storages().ofDatanode("dn-2"));
      assertEquals(List.of(), tx.storages().ofDatanode("dn-9"));
      assertEquals(Set.of(s1, s2, s3), Set.copyOf(tx.storages().all()));
    }
    StorageRecord failed = new StorageRecord("dn-1", "DS-1", "DISK", true, 1_000, 11, 899, 6);
    inTransaction(tx -> {
      tx.storages().update(failed);
      tx.storages().delete("dn-1", "DS-2");
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(failed), tx.storages().ofDatanode("dn-1"));
      assertEquals(Set.of(failed, s3), Set.copyOf(tx.storages().all()));
    }
  }

  @Test
  void invalidationsOfDatanodeHonourLimitAndDelete() throws Exception {
    List<InvalidatedBlock> dn1 = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      dn1.add(new InvalidatedBlock("dn-1", 1_000 + i, 2_000 + i, 10L * i));
    }
    InvalidatedBlock dn2 = new InvalidatedBlock("dn-2", 1_000, 2_000, 0);
    inTransaction(tx -> {
      dn1.forEach(tx.invalidations()::insert);
      tx.invalidations().insert(dn2);
    });
    try (Transaction tx = begin()) {
      List<InvalidatedBlock> limited = tx.invalidations().ofDatanode("dn-1", 3);
      assertEquals(3, limited.size());
      assertTrue(dn1.containsAll(limited), limited.toString());
      assertEquals(3, Set.copyOf(limited).size());
      assertEquals(Set.copyOf(dn1), Set.copyOf(tx.invalidations().ofDatanode("dn-1", 100)));
      assertEquals(List.of(dn2), tx.invalidations().ofDatanode("dn-2", 100));
    }
    inTransaction(tx -> {
      for (InvalidatedBlock block : tx.invalidations().ofDatanode("dn-1", 2)) {
        tx.invalidations().delete(block);
      }
    });
    try (Transaction tx = begin()) {
      assertEquals(3, tx.invalidations().ofDatanode("dn-1", 100).size());
      assertEquals(List.of(dn2), tx.invalidations().ofDatanode("dn-2", 100));
    }
  }

  @Test
  void invalidationsOfOneBlockAreFoundOnTheNamedDatanodesOnly() throws Exception {
    InvalidatedBlock onFirst = new InvalidatedBlock("dn-1", 1_000, 2_000, 10);
    InvalidatedBlock onSecond = new InvalidatedBlock("dn-2", 1_000, 2_000, 10);
    InvalidatedBlock otherBlock = new InvalidatedBlock("dn-1", 1_001, 2_001, 10);
    inTransaction(tx -> List.of(onFirst, onSecond, otherBlock).forEach(tx.invalidations()::insert));
    try (Transaction tx = begin()) {
      assertEquals(Set.of(onFirst, onSecond), Set.copyOf(tx.invalidations().ofBlock(1_000, List.of("dn-1", "dn-2",
          "dn-3"))));
      assertEquals(List.of(onSecond), tx.invalidations().ofBlock(1_000, List.of("dn-2")));
      assertEquals(List.of(), tx.invalidations().ofBlock(1_002, List.of("dn-1", "dn-2")));
      assertEquals(List.of(), tx.invalidations().ofBlock(1_000, List.of()));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // replication queue

  @Test
  void replicationQueuePagesInPriorityThenInodeThenBlockOrder() throws Exception {
    List<QueuedBlock> queued = new ArrayList<>();
    ReplicationPriority[] priorities = ReplicationPriority.values();
    for (int i = 0; i < 17; i++) {
      queued.add(new QueuedBlock(20_000 + (i * 7) % 5, 1_000 + (i * 11) % 17, priorities[(i * 3) % priorities.length],
          5_000L + i));
    }
    inTransaction(tx -> queued.forEach(tx.replicationQueue()::put));
    List<QueuedBlock> expected = queued.stream()
        .sorted(Comparator.comparingInt((QueuedBlock q) -> q.priority().code()).thenComparingLong(QueuedBlock::inodeId)
            .thenComparingLong(QueuedBlock::blockId)).toList();
    List<QueuedBlock> paged = new ArrayList<>();
    try (Transaction tx = begin()) {
      QueuedBlock after = null;
      while (true) {
        List<QueuedBlock> page = tx.replicationQueue().page(after, 5);
        assertTrue(page.size() <= 5, page.toString());
        paged.addAll(page);
        if (page.size() < 5) {
          break;
        }
        after = page.get(page.size() - 1);
      }
      List<QueuedBlock> ofFile = tx.replicationQueue().ofFile(20_002);
      assertEquals(queued.stream().filter(q -> q.inodeId() == 20_002).collect(Collectors.toSet()),
          Set.copyOf(ofFile));
      assertEquals(List.of(), tx.replicationQueue().ofFile(30_000));
    }
    assertEquals(expected, paged);
  }

  @Test
  void queuingAQueuedBlockReplacesItsPriorityAndTimeAndDeleteRemovesIt() throws Exception {
    QueuedBlock first = new QueuedBlock(20_001, 1_001, ReplicationPriority.UNDER_REPLICATED, 100);
    QueuedBlock other = new QueuedBlock(20_001, 1_002, ReplicationPriority.EXCESS, 200);
    inTransaction(tx -> {
      tx.replicationQueue().put(first);
      tx.replicationQueue().put(other);
    });
    QueuedBlock again = new QueuedBlock(20_001, 1_001, ReplicationPriority.MISSING, 300);
    inTransaction(tx -> tx.replicationQueue().put(again));
    try (Transaction tx = begin()) {
      assertEquals(List.of(again, other), tx.replicationQueue().ofFile(20_001));
    }
    inTransaction(tx -> {
      tx.replicationQueue().delete(other.key());
      tx.replicationQueue().delete(new QueuedBlock(20_009, 1_009, ReplicationPriority.HIGHEST, 0).key());
      QueuedBlock queuedThenDropped = new QueuedBlock(20_001, 1_003, ReplicationPriority.HIGHEST, 0);
      tx.replicationQueue().put(queuedThenDropped);
      tx.replicationQueue().delete(queuedThenDropped.key());
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(again), tx.replicationQueue().ofFile(20_001));
      assertEquals(List.of(again), tx.replicationQueue().page(null, 10));
    }
    inTransaction(tx -> {
      tx.replicationQueue().delete(again.key());
      tx.replicationQueue().put(first);
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(first), tx.replicationQueue().page(null, 10));
    }
  }

  @Test
  void aDatanodeDeclaredDeadReadsBackSoAndRegisteringAgainClearsIt() throws Exception {
    DatanodeRecord alive = datanode("dn-1", 1);
    assertFalse(alive.isDeclaredDead());
    DatanodeRecord dead = alive.withDeclaredDeadAt(123_456L);
    inTransaction(tx -> tx.datanodes().insert(dead));
    try (Transaction tx = begin()) {
      DatanodeRecord read = tx.datanodes().get("dn-1", LockMode.SHARED).orElseThrow();
      assertEquals(dead, read);
      assertTrue(read.isDeclaredDead());
      assertEquals(123_456L, read.declaredDeadAtMs());
      assertEquals(123_456L, read.withHeartbeat(1L, 2L, 3L, 4L, 5L, 6L, 7).declaredDeadAtMs());
    }
    inTransaction(tx -> tx.datanodes().update(alive));
    try (Transaction tx = begin()) {
      assertEquals(List.of(alive), tx.datanodes().all());
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // extended attributes

  private static ExtendedAttribute xattr(long inodeId, XAttrNamespace namespace, String name, String value) {
    return new ExtendedAttribute(inodeId, namespace, name,
        value == null ? null : value.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code length} bytes, different for every file and length, so bytes of another file or size show. */
  private static byte[] smallFileBytes(long inodeId, int length) {
    byte[] data = new byte[length];
    new java.util.Random(inodeId * 1_000_003L + length).nextBytes(data);
    return data;
  }

  @Test
  void smallFilesReadBackByteForByteAtEverySizeAroundTheTierBound() throws Exception {
    int[] lengths = {0, 1, 1023, 1024, 1025, 8191, 8192, 8193, 21 * 1024, 65535, 65536, 65537};
    inTransaction(tx -> {
      for (int i = 0; i < lengths.length; i++) {
        tx.smallFiles().put(30_000 + i, smallFileBytes(30_000 + i, lengths[i]));
      }
    });
    try (Transaction tx = begin()) {
      for (int i = 0; i < lengths.length; i++) {
        byte[] read = tx.smallFiles().get(30_000 + i).orElseThrow(() -> new AssertionError("a file is missing"));
        assertArrayEquals(smallFileBytes(30_000 + i, lengths[i]), read, lengths[i] + " bytes");
      }
      assertTrue(tx.smallFiles().get(29_999).isEmpty(), "a file with no bytes stored reads as none");
    }
  }

  @Test
  void puttingASmallFileReplacesItsBytesAcrossSizesAndDeleteRemovesOnlyThatFile() throws Exception {
    inTransaction(tx -> {
      tx.smallFiles().put(30_001, smallFileBytes(1, 20_000));
      tx.smallFiles().put(30_002, smallFileBytes(2, 10));
    });
    inTransaction(tx -> tx.smallFiles().put(30_001, smallFileBytes(3, 100))); // larger tier -> inline
    try (Transaction tx = begin()) {
      assertArrayEquals(smallFileBytes(3, 100), tx.smallFiles().get(30_001).orElseThrow());
    }
    inTransaction(tx -> tx.smallFiles().put(30_001, smallFileBytes(4, 9_000))); // inline -> larger tier
    inTransaction(tx -> tx.smallFiles().put(30_001, smallFileBytes(5, 8_500))); // replaced within that tier
    try (Transaction tx = begin()) {
      assertArrayEquals(smallFileBytes(5, 8_500), tx.smallFiles().get(30_001).orElseThrow());
    }
    inTransaction(tx -> tx.smallFiles().delete(30_001));
    try (Transaction tx = begin()) {
      assertTrue(tx.smallFiles().get(30_001).isEmpty());
      assertArrayEquals(smallFileBytes(2, 10), tx.smallFiles().get(30_002).orElseThrow());
    }
  }

  @Test
  void aSmallFilePutIsInvisibleToOthersUntilCommitAndTheBytesGivenAreCopied() throws Exception {
    byte[] data = smallFileBytes(6, 300);
    try (Transaction writer = begin()) {
      writer.smallFiles().put(30_003, data);
      data[0] ^= 1; // the caller's array changes after the put
      try (Transaction reader = begin()) {
        assertTrue(reader.smallFiles().get(30_003).isEmpty());
      }
      writer.commit();
    }
    try (Transaction tx = begin()) {
      assertArrayEquals(smallFileBytes(6, 300), tx.smallFiles().get(30_003).orElseThrow());
    }
  }

  @Test
  void theLastOfAPutAndADeleteOfASmallFileInOneTransactionWins() throws Exception {
    inTransaction(tx -> {
      tx.smallFiles().put(30_021, smallFileBytes(21, 40));
      tx.smallFiles().delete(30_021);
      tx.smallFiles().put(30_022, smallFileBytes(22, 40));
    });
    inTransaction(tx -> {
      tx.smallFiles().delete(30_022);
      tx.smallFiles().put(30_022, smallFileBytes(23, 3_000));
    });
    try (Transaction tx = begin()) {
      assertTrue(tx.smallFiles().get(30_021).isEmpty());
      assertArrayEquals(smallFileBytes(23, 3_000), tx.smallFiles().get(30_022).orElseThrow());
    }
  }

  @Test
  void insertingTheBytesOfANewSmallFileStoresThemAndFailsOverBytesOfTheSameTier() throws Exception {
    inTransaction(tx -> {
      tx.smallFiles().insert(30_031, smallFileBytes(31, 500));
      tx.smallFiles().insert(30_032, smallFileBytes(32, 5_000));
    });
    inTransaction(tx -> {
      tx.smallFiles().delete(30_031); // a delete first: the insert that follows replaces nothing
      tx.smallFiles().insert(30_031, smallFileBytes(33, 2_000));
    });
    // a caller that breaks the precondition (the file holds bytes) is not silently obeyed where the engine can tell
    assertThrows(StoreException.class, () -> inTransaction(tx -> tx.smallFiles().insert(30_032,
        smallFileBytes(34, 4_000))));
    try (Transaction tx = begin()) {
      assertArrayEquals(smallFileBytes(33, 2_000), tx.smallFiles().get(30_031).orElseThrow());
      assertArrayEquals(smallFileBytes(32, 5_000), tx.smallFiles().get(30_032).orElseThrow());
    }
  }

  @Test
  void deletingTheSmallFilesOfInodesRemovesEarlierWritesButKeepsLaterOnesAndOtherFiles() throws Exception {
    inTransaction(tx -> {
      tx.smallFiles().put(30_011, smallFileBytes(11, 50));
      tx.smallFiles().put(30_012, smallFileBytes(12, 30_000));
      tx.smallFiles().put(30_013, smallFileBytes(13, 50));
    });
    inTransaction(tx -> {
      tx.smallFiles().put(30_011, smallFileBytes(14, 60)); // superseded by the delete below
      tx.smallFiles().deleteOfInodes(List.of(30_011L, 30_012L));
      tx.smallFiles().put(30_012, smallFileBytes(15, 70)); // after it: stays
    });
    try (Transaction tx = begin()) {
      assertTrue(tx.smallFiles().get(30_011).isEmpty());
      assertArrayEquals(smallFileBytes(15, 70), tx.smallFiles().get(30_012).orElseThrow());
      assertArrayEquals(smallFileBytes(13, 50), tx.smallFiles().get(30_013).orElseThrow());
    }
  }

  @Test
  void xattrsOfAnInodeReadBackInNamespaceThenNameOrderWithNullAndEmptyValuesKept() throws Exception {
    ExtendedAttribute b = xattr(20_001, XAttrNamespace.USER, "b", "2");
    ExtendedAttribute a = xattr(20_001, XAttrNamespace.USER, "a", null);
    ExtendedAttribute empty = xattr(20_001, XAttrNamespace.USER, "\u00e9", "");
    ExtendedAttribute trusted = xattr(20_001, XAttrNamespace.TRUSTED, "a", "t");
    ExtendedAttribute other = xattr(20_002, XAttrNamespace.USER, "a", "other inode");
    inTransaction(tx -> List.of(trusted, b, empty, other, a).forEach(tx.xattrs()::put));
    try (Transaction tx = begin()) {
      List<ExtendedAttribute> read = tx.xattrs().ofInode(20_001);
      assertEquals(List.of(a, b, empty, trusted), read);
      assertNull(read.get(0).value(), "an attribute without a value reads back without one");
      assertEquals(0, read.get(2).value().length);
      assertEquals(List.of(other), tx.xattrs().ofInode(20_002));
      assertEquals(List.of(), tx.xattrs().ofInode(20_003));
    }
  }

  @Test
  void puttingAnExistingXAttrReplacesItsValueAndDeleteRemovesOnlyThatKey() throws Exception {
    inTransaction(tx -> {
      tx.xattrs().put(xattr(20_001, XAttrNamespace.USER, "a", "1"));
      tx.xattrs().put(xattr(20_001, XAttrNamespace.TRUSTED, "a", "1"));
    });
    inTransaction(tx -> tx.xattrs().put(xattr(20_001, XAttrNamespace.USER, "a", "2")));
    try (Transaction tx = begin()) {
      assertEquals(List.of(xattr(20_001, XAttrNamespace.USER, "a", "2"),
          xattr(20_001, XAttrNamespace.TRUSTED, "a", "1")), tx.xattrs().ofInode(20_001));
    }
    inTransaction(tx -> tx.xattrs().delete(xattr(20_001, XAttrNamespace.USER, "a", null).key()));
    try (Transaction tx = begin()) {
      assertEquals(List.of(xattr(20_001, XAttrNamespace.TRUSTED, "a", "1")), tx.xattrs().ofInode(20_001));
    }
  }

  @Test
  void deletingTheXAttrsOfInodesRemovesEarlierWritesButKeepsLaterOnesAndOtherInodes() throws Exception {
    inTransaction(tx -> {
      tx.xattrs().put(xattr(20_001, XAttrNamespace.USER, "a", "1"));
      tx.xattrs().put(xattr(20_002, XAttrNamespace.USER, "a", "1"));
      tx.xattrs().put(xattr(20_003, XAttrNamespace.USER, "a", "1"));
    });
    inTransaction(tx -> {
      tx.xattrs().put(xattr(20_001, XAttrNamespace.USER, "b", "put before the delete"));
      tx.xattrs().deleteOfInodes(List.of(20_001L, 20_002L, 20_009L));
      tx.xattrs().put(xattr(20_002, XAttrNamespace.USER, "c", "put after the delete"));
    });
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.xattrs().ofInode(20_001));
      assertEquals(List.of(xattr(20_002, XAttrNamespace.USER, "c", "put after the delete")),
          tx.xattrs().ofInode(20_002));
      assertEquals(List.of(xattr(20_003, XAttrNamespace.USER, "a", "1")), tx.xattrs().ofInode(20_003));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // directory quotas

  @Test
  void inodeQuotaFlagReadsBackAndSurvivesWithers() throws Exception {
    Inode quoted = directory(20_001, ROOT_ID, "q").withQuota(true);
    Inode plain = directory(20_002, ROOT_ID, "p");
    insertCommitted(quoted, plain);
    assertEquals(Optional.of(quoted), inode(quoted.key()));
    assertTrue(inode(quoted.key()).orElseThrow().withChildrenCount(4).withTimes(1, 2).hasQuota());
    assertFalse(inode(plain.key()).orElseThrow().hasQuota());
    inTransaction(tx -> tx.inodes().update(quoted.withQuota(false)));
    assertFalse(inodeById(quoted.id()).orElseThrow().hasQuota());
    assertThrows(IllegalArgumentException.class, () -> file(20_003, ROOT_ID, "f").withQuota(true),
        "a file cannot have a quota");
  }

  @Test
  void quotaRowsInsertReadUpdateDeleteAndPageInIdOrder() throws Exception {
    DirectoryQuota a = new DirectoryQuota(20_005, 100, -1, 1, 0);
    DirectoryQuota b = new DirectoryQuota(20_001, -1, 1L << 40, 7, 3L << 20);
    DirectoryQuota c = new DirectoryQuota(20_003, 5, 1_000, 5, 1_000);
    try (Transaction tx = begin()) {
      assertFalse(tx.quotas().any());
      assertEquals(Optional.empty(), tx.quotas().get(20_001, LockMode.NONE));
    }
    inTransaction(tx -> {
      tx.quotas().insert(a);
      tx.quotas().insert(b);
      tx.quotas().insert(c);
    });
    try (Transaction tx = begin()) {
      assertTrue(tx.quotas().any());
      assertEquals(Optional.of(b), tx.quotas().get(20_001, LockMode.SHARED));
      assertEquals(List.of(b, c, a), tx.quotas().page(0, 10));
      assertEquals(List.of(c), tx.quotas().page(20_001, 1));
    }
    inTransaction(tx -> {
      tx.quotas().update(a.plus(2, 300));
      tx.quotas().update(a.plus(2, 300).withLimits(50, 10_000)); // the last update of a transaction wins
      tx.quotas().delete(20_003);
    });
    try (Transaction tx = store.beginReadOnly()) {
      assertEquals(Optional.of(new DirectoryQuota(20_005, 50, 10_000, 3, 300)),
          tx.quotas().get(20_005, LockMode.EXCLUSIVE));
      assertEquals(Optional.empty(), tx.quotas().get(20_003, LockMode.NONE));
      assertEquals(2, tx.quotas().page(0, 10).size());
    }
    inTransaction(tx -> {
      tx.quotas().delete(20_001);
      tx.quotas().delete(20_005);
    });
    try (Transaction tx = begin()) {
      assertFalse(tx.quotas().any());
    }
  }

  @Test
  void xattrWritesAreDiscardedOnRollbackAndReadInTheLockRoundTrip() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    inTransaction(tx -> tx.xattrs().put(xattr(20_001, XAttrNamespace.USER, "kept", "1")));
    try (Transaction tx = begin()) {
      tx.xattrs().put(xattr(20_001, XAttrNamespace.USER, "dropped", "1"));
      tx.xattrs().deleteOfInodes(List.of(20_001L));
      tx.rollback();
    }
    try (Transaction tx = begin()) {
      int before = tx.roundTrips();
      ReadBatch batch = tx.batch();
      ReadBatch.Result<Optional<Inode>> locked = batch.inode(f.key(), LockMode.SHARED);
      ReadBatch.Result<List<ExtendedAttribute>> attributes = batch.xattrsOf(20_001);
      batch.execute();
      assertOneRoundTrip(tx.roundTrips() - before, "the inode and its attributes come in one round trip");
      assertEquals(Optional.of(f), locked.get());
      assertEquals(List.of(xattr(20_001, XAttrNamespace.USER, "kept", "1")), attributes.get());
    }
  }

  /**
   * A file's rows read in a batch, alone or right after the unlocked reads of its path (an engine may fold them into
   * one statement), in read-only and read-write transactions; a key read after them is still answered.
   */
  @Test
  void batchReadsAFilesRowsAfterItsPathsUnlockedReads() throws Exception {
    Inode d = directory(20_001, ROOT_ID, "d");
    Inode f = file(20_002, 20_001, "f");
    Inode g = file(20_003, 20_001, "g");
    insertCommitted(d);
    insertCommitted(f);
    insertCommitted(g);
    Block first = new Block(20_002, 1_001, 0, 10, 1_001, BlockState.COMPLETE);
    Block second = new Block(20_002, 1_002, 1, 0, 1_002, BlockState.UNDER_CONSTRUCTION);
    Replica good = new Replica(20_002, 1_001, "DS-1");
    Replica bad = new Replica(20_002, 1_001, "DS-2").markedCorrupt(CorruptReason.GENSTAMP_MISMATCH, 999);
    UcReplica pipeline = new UcReplica(20_002, 1_002, "DS-3", UcReplicaState.RECEIVING, 1_002);
    inTransaction(tx -> {
      tx.blocks().insert(second);
      tx.blocks().insert(first);
      tx.replicas().insert(good);
      tx.replicas().insert(bad);
      tx.ucReplicas().insert(pipeline);
    });
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        int before = tx.roundTrips();
        ReadBatch batch = tx.batch();
        ReadBatch.Result<Map<InodeKey, Inode>> path = batch.inodes(List.of(ROOT.key(), d.key(), f.key()),
            LockMode.NONE);
        ReadBatch.Result<ReadBatch.FileRows> rows = batch.fileRows(20_002);
        ReadBatch.Result<Optional<Inode>> later = batch.inode(g.key(), LockMode.NONE);
        ReadBatch.Result<ReadBatch.FileRows> none = batch.fileRows(20_003);
        assertThrows(IllegalStateException.class, rows::get, "no value before the batch executed");
        batch.execute();
        assertOneRoundTrip(tx.roundTrips() - before, "one round trip for the whole batch");
        assertEquals(List.of(ROOT.key(), d.key(), f.key()), List.copyOf(path.get().keySet()));
        assertEquals(f, path.get().get(f.key()));
        assertEquals(List.of(first, second), rows.get().blocks(), "blocks in index order");
        assertEquals(Set.of(good, bad), Set.copyOf(rows.get().replicas()));
        assertEquals(List.of(pipeline), rows.get().ucReplicas());
        assertEquals(Optional.of(g), later.get());
        assertEquals(List.of(), none.get().blocks());
        assertEquals(List.of(), none.get().replicas());
        assertEquals(List.of(), none.get().ucReplicas());
      }
    }
  }

  /**
   * Some blocks of a file read in a batch: exactly those blocks (ids the file does not hold, or another file's, left
   * out) with their replicas and pipeline replicas, nothing of the file's other blocks; an empty set reads nothing.
   */
  @Test
  void batchReadsSomeBlocksOfAFileWithTheirReplicasOnly() throws Exception {
    Block first = new Block(20_022, 2_001, 0, 10, 2_001, BlockState.COMPLETE);
    Block second = new Block(20_022, 2_002, 1, 10, 2_002, BlockState.COMPLETE);
    Block third = new Block(20_022, 2_003, 2, 0, 2_003, BlockState.UNDER_CONSTRUCTION);
    Block elsewhere = new Block(20_023, 2_004, 0, 10, 2_004, BlockState.COMPLETE);
    Replica firstGood = new Replica(20_022, 2_001, "DS-1");
    Replica firstBad = new Replica(20_022, 2_001, "DS-2").markedCorrupt(CorruptReason.SIZE_MISMATCH, 2_001);
    Replica secondGood = new Replica(20_022, 2_002, "DS-1");
    UcReplica thirdPipeline = new UcReplica(20_022, 2_003, "DS-3", UcReplicaState.RECEIVING, 2_003);
    Replica elsewhereGood = new Replica(20_023, 2_004, "DS-1");
    inTransaction(tx -> {
      for (Block block : List.of(third, first, second, elsewhere)) {
        tx.blocks().insert(block);
      }
      for (Replica replica : List.of(firstGood, firstBad, secondGood, elsewhereGood)) {
        tx.replicas().insert(replica);
      }
      tx.ucReplicas().insert(thirdPipeline);
    });
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        int before = tx.roundTrips();
        ReadBatch batch = tx.batch();
        ReadBatch.Result<ReadBatch.FileRows> firstAndThird = batch.fileRows(20_022, Set.of(2_001L, 2_003L, 2_004L,
            9_999L));
        ReadBatch.Result<ReadBatch.FileRows> second2 = batch.fileRows(20_022, Set.of(2_002L));
        ReadBatch.Result<ReadBatch.FileRows> none = batch.fileRows(20_022, Set.of());
        batch.execute();
        assertOneRoundTrip(tx.roundTrips() - before, "one round trip for the whole batch");
        assertEquals(List.of(first, third), firstAndThird.get().blocks(), "blocks in index order");
        assertEquals(Set.of(firstGood, firstBad), Set.copyOf(firstAndThird.get().replicas()));
        assertEquals(List.of(thirdPipeline), firstAndThird.get().ucReplicas());
        assertEquals(List.of(second), second2.get().blocks());
        assertEquals(List.of(secondGood), second2.get().replicas());
        assertEquals(List.of(), second2.get().ucReplicas());
        assertEquals(List.of(), none.get().blocks());
        assertEquals(List.of(), none.get().replicas());
      }
    }
  }

  @Test
  void batchReadsAFilesRowsWithItsSmallDataInEitherTier() throws Exception {
    Block inlineBlock = new Block(20_012, -20_012, 0, 5, 1_011, BlockState.COMPLETE);
    byte[] inline = smallFileBytes(12, 5);
    byte[] outOfLine = smallFileBytes(13, 20_000);
    inTransaction(tx -> {
      tx.blocks().insert(inlineBlock);
      tx.smallFiles().insert(20_012, inline);
      tx.smallFiles().insert(20_013, outOfLine);
    });
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        int before = tx.roundTrips();
        ReadBatch batch = tx.batch();
        ReadBatch.Result<ReadBatch.FileRows> small = batch.fileRows(20_012, true);
        ReadBatch.Result<ReadBatch.FileRows> large = batch.fileRows(20_013, true);
        ReadBatch.Result<ReadBatch.FileRows> withoutData = batch.fileRows(20_012);
        ReadBatch.Result<ReadBatch.FileRows> none = batch.fileRows(20_014, true);
        ReadBatch.Result<Optional<byte[]>> alone = batch.smallFileData(20_013);
        batch.execute();
        assertOneRoundTrip(tx.roundTrips() - before, "one round trip for the whole batch");
        assertEquals(List.of(inlineBlock), small.get().blocks());
        assertTrue(small.get().smallDataRead());
        assertArrayEquals(inline, small.get().smallData().orElseThrow(), "the inline tier's bytes");
        assertArrayEquals(outOfLine, large.get().smallData().orElseThrow(), "the other tier's bytes");
        assertEquals(List.of(), large.get().blocks());
        assertFalse(withoutData.get().smallDataRead());
        assertTrue(withoutData.get().smallData().isEmpty(), "bytes only when asked for");
        assertEquals(List.of(inlineBlock), withoutData.get().blocks());
        assertTrue(none.get().smallDataRead());
        assertTrue(none.get().smallData().isEmpty(), "a file with no bytes stored reads as none");
        assertArrayEquals(outOfLine, alone.get().orElseThrow());
      }
    }
  }

  @Test
  void batchReadsQuotaRowsTheAnyTestAndVariables() throws Exception {
    inTransaction(tx -> {
      tx.quotas().insert(new DirectoryQuota(20_001, 10, -1, 2, 0));
      tx.variables().putLong("quota.epoch", 4);
    });
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        int before = tx.roundTrips();
        ReadBatch batch = tx.batch();
        ReadBatch.Result<Optional<DirectoryQuota>> present = batch.quota(20_001, LockMode.EXCLUSIVE);
        ReadBatch.Result<Optional<DirectoryQuota>> missing = batch.quota(20_002, LockMode.EXCLUSIVE);
        ReadBatch.Result<Boolean> any = batch.anyQuota();
        ReadBatch.Result<OptionalLong> epoch = batch.longVariable("quota.epoch");
        ReadBatch.Result<OptionalLong> unset = batch.longVariable("never.set");
        assertThrows(IllegalStateException.class, present::get, "no value before the batch executed");
        batch.execute();
        assertOneRoundTrip(tx.roundTrips() - before, "one round trip for the whole batch");
        assertEquals(Optional.of(new DirectoryQuota(20_001, 10, -1, 2, 0)), present.get());
        assertEquals(Optional.empty(), missing.get());
        assertTrue(any.get());
        assertEquals(OptionalLong.of(4), epoch.get());
        assertEquals(OptionalLong.empty(), unset.get());
      }
    }
  }

  @Test
  void aQuotaRowLockedByABatchHoldsOffAnotherWriterUntilCommit() throws Exception {
    // How concurrent operations under one quota directory serialize: the second sees the first's usage.
    DirectoryQuota quota = new DirectoryQuota(20_001, 10, -1, 1, 0);
    inTransaction(tx -> tx.quotas().insert(quota));
    CountDownLatch writerStarted = new CountDownLatch(1);
    Future<DirectoryQuota> writer;
    try (Transaction holder = begin()) {
      ReadBatch batch = holder.batch();
      ReadBatch.Result<Optional<DirectoryQuota>> locked = batch.quota(20_001, LockMode.EXCLUSIVE);
      batch.execute();
      writer = threads.submit(retryingTransient(() -> {
        try (Transaction tx = begin()) {
          writerStarted.countDown();
          DirectoryQuota seen = tx.quotas().get(20_001, LockMode.EXCLUSIVE).orElseThrow();
          tx.quotas().update(seen.plus(1, 10));
          tx.commit();
          return seen;
        }
      }));
      assertTrue(writerStarted.await(WAIT_SECONDS, SECONDS));
      assertStillWaiting(writer);
      holder.quotas().update(locked.get().orElseThrow().plus(1, 5));
      holder.commit();
    }
    assertEquals(quota.plus(1, 5), writer.get(WAIT_SECONDS, SECONDS), "the waiter must see the committed usage");
    try (Transaction tx = begin()) {
      assertEquals(Optional.of(quota.plus(2, 15)), tx.quotas().get(20_001, LockMode.NONE));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // locking

  @Test
  void exclusiveReadBlocksAnotherExclusiveReadUntilCommit() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f").withSize(1);
    insertCommitted(f);
    try (Transaction holder = begin()) {
      holder.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
      Future<Inode> waiter = readInAnotherThread(f.key(), LockMode.EXCLUSIVE);
      assertStillWaiting(waiter);
      holder.inodes().update(f.withSize(2));
      holder.commit();
      assertEquals(2, waiter.get(WAIT_SECONDS, SECONDS).size(), "the waiter must see the committed update");
    }
  }

  @Test
  void sharedReadBlocksAnExclusiveReadUntilRollback() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    try (Transaction holder = begin()) {
      holder.inodes().getById(20_001, LockMode.SHARED).orElseThrow();
      Future<Inode> waiter = readInAnotherThread(f.key(), LockMode.EXCLUSIVE);
      assertStillWaiting(waiter);
      holder.rollback();
      assertEquals(f, waiter.get(WAIT_SECONDS, SECONDS));
    }
  }

  @Test
  void sharedReadsDoNotBlockEachOther() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    try (Transaction holder = begin()) {
      holder.inodes().get(f.key(), LockMode.SHARED).orElseThrow();
      assertEquals(f, readInAnotherThread(f.key(), LockMode.SHARED).get(WAIT_SECONDS, SECONDS));
    }
  }

  @Test
  void readCommittedNeverBlocksAndSeesTheLastCommittedVersion() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode g = file(20_002, ROOT_ID, "g");
    insertCommitted(f, g);
    try (Transaction holder = begin()) {
      holder.inodes().getAll(List.of(f.key(), g.key()), LockMode.EXCLUSIVE);
      holder.inodes().update(f.withSize(9));
      Future<List<Inode>> reader = threads.submit(() -> {
        try (Transaction tx = begin()) {
          List<Inode> seen = new ArrayList<>();
          seen.add(tx.inodes().get(f.key(), LockMode.NONE).orElseThrow());
          seen.add(tx.inodes().getById(20_002, LockMode.NONE).orElseThrow());
          seen.addAll(tx.inodes().children(ROOT_ID, ROOT_ID, null, 10, LockMode.NONE));
          seen.addAll(tx.inodes().getAll(List.of(f.key()), LockMode.NONE).values());
          return seen;
        }
      });
      assertEquals(List.of(f, g, f, g, f), reader.get(WAIT_SECONDS, SECONDS));
    }
  }

  /**
   * A read batch's reads after a lock it waited for see what the lock's holder committed meanwhile: locked or not,
   * the later reads must not use a view taken before the wait (a mkdirs -p proving a parent still missing under the
   * grandparent's lock would otherwise create it twice).
   */
  @Test
  void readsOfABatchAfterALockItWaitedForSeeWhatTheHolderCommitted() throws Exception {
    Inode child = file(20_001, ROOT_ID, "made-meanwhile");
    Inode other = file(20_002, ROOT_ID, "also-made-meanwhile");
    try (Transaction holder = begin()) {
      holder.inodes().get(ROOT.key(), LockMode.EXCLUSIVE).orElseThrow();
      Future<List<Optional<Inode>>> waiter = threads.submit(retryingTransient(() -> {
        try (Transaction tx = begin()) {
          ReadBatch batch = tx.batch();
          batch.inode(ROOT.key(), LockMode.EXCLUSIVE);
          ReadBatch.Result<Optional<Inode>> locked = batch.inode(child.key(), LockMode.EXCLUSIVE);
          ReadBatch.Result<Optional<Inode>> unlocked = batch.inode(other.key(), LockMode.NONE);
          batch.execute();
          return List.of(locked.get(), unlocked.get());
        }
      }));
      assertStillWaiting(waiter);
      holder.inodes().insert(child);
      holder.inodes().insert(other);
      holder.commit();
      assertEquals(List.of(Optional.of(child), Optional.of(other)), waiter.get(WAIT_SECONDS, SECONDS));
    }
  }

  @Test
  void crossedExclusiveLocksDeadlockAndOneSideGetsATransientError() throws Exception {
    Inode x = file(20_001, ROOT_ID, "x");
    Inode y = file(20_002, ROOT_ID, "y");
    // a row between them, so that an engine whose writes lock the next key of a sorted index (Ignite: an exclusive
    // lock is a write) does not make the first locks meet before the test's barrier
    insertCommitted(x, y, file(20_003, ROOT_ID, "xy"));
    CyclicBarrier bothHoldFirstLock = new CyclicBarrier(2);
    Future<String> a = threads.submit(lockBoth(x.key(), y.key(), bothHoldFirstLock));
    Future<String> b = threads.submit(lockBoth(y.key(), x.key(), bothHoldFirstLock));
    List<String> outcomes = new ArrayList<>(List.of(a.get(WAIT_SECONDS, SECONDS), b.get(WAIT_SECONDS, SECONDS)));
    Collections.sort(outcomes);
    assertEquals(List.of("committed", "transient"), outcomes);
    long committedUpdates = inode(x.key()).orElseThrow().size() + inode(y.key()).orElseThrow().size();
    assertEquals(1, committedUpdates, "exactly the survivor's update must be committed");
  }

  // ---------------------------------------------------------------------------------------------------------
  // failures, round trips, admin queries

  @Test
  void duplicatePrimaryKeyFailsAtCommitWithAPermanentError() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    try (Transaction tx = begin()) {
      tx.inodes().insert(file(20_002, ROOT_ID, "g"));
      tx.inodes().insert(file(20_003, ROOT_ID, "f"));
      StoreException error = assertThrows(StoreException.class, tx::commit);
      assertFalse(error instanceof TransientStoreException, "a constraint violation is not transient: " + error);
    }
    assertEquals(Optional.of(f), inode(f.key()));
    assertEquals(Optional.empty(), inodeById(20_002), "the failed transaction must not be half applied");
    assertEquals(Optional.empty(), inodeById(20_003));
  }

  @Test
  void batchedGetAllIsOneRoundTrip() throws Exception {
    List<InodeKey> keys = new ArrayList<>();
    List<Inode> inodes = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Inode child = file(20_000 + i, ROOT_ID, "child-" + i);
      inodes.add(child);
      keys.add(child.key());
      keys.add(new InodeKey(ROOT_ID, ROOT_ID, "missing-" + i));
    }
    insertCommitted(inodes.toArray(new Inode[0]));
    Collections.shuffle(keys, new Random(7));
    try (Transaction tx = begin()) {
      int before = tx.roundTrips();
      Map<InodeKey, Inode> found = tx.inodes().getAll(keys, LockMode.SHARED);
      assertEquals(before + 1, tx.roundTrips());
      assertEquals(60, found.size());
    }
  }

  @Test
  void adminQueryReturnsColumnsAndRows() throws Exception {
    AdminQueries admin = adminQueries();
    insertCommitted(file(20_001, ROOT_ID, "f"), file(20_002, ROOT_ID, "g"));
    QueryResult result = admin.adminQuery(adminQueryInodeIdsAndNames(), 100);
    assertEquals(List.of("id", "name"), result.columns());
    assertEquals(List.of(List.of("16385", ""), List.of("20001", "f"), List.of("20002", "g")), result.rows());
    assertFalse(result.truncated());
  }

  @Test
  void adminQueryTruncatesAtMaxRows() throws Exception {
    AdminQueries admin = adminQueries();
    insertCommitted(file(20_001, ROOT_ID, "f"), file(20_002, ROOT_ID, "g"), file(20_003, ROOT_ID, "h"));
    QueryResult cut = admin.adminQuery(adminQueryInodeIdsAndNames(), 2);
    assertEquals(List.of(List.of("16385", ""), List.of("20001", "f")), cut.rows());
    assertTrue(cut.truncated());
    QueryResult exact = admin.adminQuery(adminQueryInodeIdsAndNames(), 4);
    assertEquals(4, exact.rows().size());
    assertFalse(exact.truncated());
  }

  @Test
  void adminQueryWithLargestMaxRowsReturnsEveryRow() throws Exception {
    AdminQueries admin = adminQueries();
    insertCommitted(file(20_001, ROOT_ID, "f"));
    QueryResult all = admin.adminQuery(adminQueryInodeIdsAndNames(), Integer.MAX_VALUE);
    assertEquals(2, all.rows().size());
    assertFalse(all.truncated());
  }

  @Test
  void adminQueryRefusesWrites() throws Exception {
    AdminQueries admin = adminQueries();
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    assertThrows(StoreException.class, () -> admin.adminQuery(adminQueryDeletingInodes(), 10));
    assertEquals(Optional.of(f), inode(f.key()));
    assertEquals(Optional.of(ROOT), inode(ROOT.key()));
  }

  @Test
  void adminQueryRefusesWritesAfterAnEmbeddedCommit() throws Exception {
    AdminQueries admin = adminQueries();
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    assertThrows(StoreException.class, () -> admin.adminQuery(adminQueryCommittingThenDeletingInodes(), 10));
    assertEquals(Optional.of(f), inode(f.key()));
    assertEquals(Optional.of(ROOT), inode(ROOT.key()));
  }

  @Test
  void aSnapshotReadsOneStateWrittenWithTheSchemasNames() throws Exception {
    AdminQueries admin = adminQueries();
    insertCommitted(file(20_001, ROOT_ID, "f"));
    String names = admin.withSchemaNames("SELECT name FROM inodes WHERE parent_id = " + ROOT_ID + " ORDER BY name");
    List<List<List<String>>> reads = admin.inSnapshot(snapshot -> {
      List<List<String>> first = new ArrayList<>();
      snapshot.forEachRow(names, first::add);
      insertCommitted(file(20_002, ROOT_ID, "g")); // committed while the snapshot is open
      List<List<String>> second = new ArrayList<>();
      snapshot.forEachRow(names, second::add);
      return List.of(first, second);
    });
    assertEquals(reads.get(0), reads.get(1), "both reads see one state");
    assertFalse(reads.get(1).contains(List.of("g")), "a commit after the snapshot's first read is not in it");
    // (a snapshot may read a moment in the past: Ignite's read-only transactions do, design 020)
    assertEquals(List.of(List.of("f"), List.of("g")), admin.adminQuery(names, 10).rows());
  }

  @Test
  void aSnapshotRefusesWrites() throws Exception {
    AdminQueries admin = adminQueries();
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    assertThrows(StoreException.class, () -> admin.inSnapshot(snapshot -> {
      snapshot.forEachRow(admin.withSchemaNames("DELETE FROM inodes"), row -> { });
      return null;
    }));
    assertEquals(Optional.of(f), inode(f.key()));
  }

  @Test
  void blockKeysAreAddedOnceReadBackAndExpired() throws Exception {
    Optional<BlockKeys> capability = store.capability(BlockKeys.class);
    assumeTrue(capability.isPresent(), () -> store.describe() + " keeps no block keys");
    BlockKeys keys = capability.get();
    assertEquals(List.of(), keys.all());
    assertTrue(keys.add(new BlockKeys.Key(7, 1_000, new byte[] {1, 2, 3})));
    assertFalse(keys.add(new BlockKeys.Key(7, 9_000, new byte[] {9})), "an id is added once");
    assertTrue(keys.add(new BlockKeys.Key(8, 5_000, new byte[] {4})));
    List<BlockKeys.Key> all = keys.all();
    assertEquals(List.of(7, 8), all.stream().map(BlockKeys.Key::id).toList());
    assertEquals(1_000, all.get(0).expiryMs());
    assertArrayEquals(new byte[] {1, 2, 3}, all.get(0).secret());
    assertEquals(1, keys.deleteExpired(2_000));
    assertEquals(List.of(8), keys.all().stream().map(BlockKeys.Key::id).toList());
  }

  @Test
  void delegationTokensAndKeysAreStoredRenewedAndDeleted() throws Exception {
    Optional<DelegationTokenStore> capability = store.capability(DelegationTokenStore.class);
    assumeTrue(capability.isPresent(), () -> store.describe() + " keeps no delegation tokens");
    DelegationTokenStore tokens = capability.get();
    byte[] id = {1, 2, 3};
    assertNull(tokens.tokenInformation(5, id));
    tokens.addToken(5, id, new byte[] {9}, 1_000);
    assertThrows(StoreException.class, () -> tokens.addToken(5, id, new byte[] {8}, 1_000), "a token is stored once");
    tokens.addToken(6, new byte[] {4}, new byte[] {7}, 3_000);
    assertArrayEquals(new byte[] {9}, tokens.tokenInformation(5, id));
    assertNull(tokens.tokenInformation(5, new byte[] {1, 2}), "the identifier is part of the key");
    List<DelegationTokenStore.StoredToken> stale = tokens.tokensModifiedBefore(2_000, 10);
    assertEquals(1, stale.size(), "only the token written before 2,000");
    assertArrayEquals(id, stale.get(0).identifier());
    assertArrayEquals(new byte[] {9}, stale.get(0).information());
    assertTrue(tokens.updateToken(5, id, new byte[] {10}, 4_000));
    assertArrayEquals(new byte[] {10}, tokens.tokenInformation(5, id));
    assertEquals(0, tokens.tokensModifiedBefore(2_000, 10).size(), "a renewal moves the modification time");
    assertEquals(1, tokens.tokensModifiedBefore(5_000, 1).size(), "the limit holds");
    assertFalse(tokens.updateToken(99, id, new byte[] {1}, 4_000));
    assertTrue(tokens.deleteToken(5, id));
    assertFalse(tokens.deleteToken(5, id));
    assertNull(tokens.tokenInformation(5, id));

    assertNull(tokens.masterKey(3));
    tokens.addMasterKey(3, new byte[] {5, 5}, 10_000);
    assertThrows(StoreException.class, () -> tokens.addMasterKey(3, new byte[] {6}, 10_000),
        "a key id is stored once");
    assertTrue(tokens.updateMasterKey(3, new byte[] {6}, 20_000));
    assertArrayEquals(new byte[] {6}, tokens.masterKey(3));
    tokens.addMasterKey(4, new byte[] {7}, 5_000);
    assertEquals(1, tokens.deleteExpiredMasterKeys(15_000), "the key whose expiry passed, not the one renewed");
    assertNull(tokens.masterKey(4));
    assertTrue(tokens.deleteMasterKey(3));
    assertFalse(tokens.updateMasterKey(3, new byte[] {6}, 20_000));
    assertNull(tokens.masterKey(3));

    assertEquals(0, tokens.counter(DelegationTokenStore.Counter.TOKEN_SEQUENCE));
    assertEquals(0, tokens.reserve(DelegationTokenStore.Counter.TOKEN_SEQUENCE, 10));
    assertEquals(10, tokens.reserve(DelegationTokenStore.Counter.TOKEN_SEQUENCE, 10));
    assertEquals(20, tokens.counter(DelegationTokenStore.Counter.TOKEN_SEQUENCE));
    assertEquals(0, tokens.counter(DelegationTokenStore.Counter.KEY_ID), "the counters are separate");
    tokens.setCounter(DelegationTokenStore.Counter.KEY_ID, 41);
    assertEquals(41, tokens.reserve(DelegationTokenStore.Counter.KEY_ID, 1));
    assertEquals(42, tokens.counter(DelegationTokenStore.Counter.KEY_ID));
  }

  @Test
  void concurrentReservationsNeverOverlap() throws Exception {
    Optional<DelegationTokenStore> capability = store.capability(DelegationTokenStore.class);
    assumeTrue(capability.isPresent(), () -> store.describe() + " keeps no delegation tokens");
    DelegationTokenStore tokens = capability.get();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Integer>> starts = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        starts.add(pool.submit(() -> tokens.reserve(DelegationTokenStore.Counter.TOKEN_SEQUENCE, 10)));
      }
      java.util.Set<Integer> seen = new java.util.TreeSet<>();
      for (java.util.concurrent.Future<Integer> start : starts) {
        seen.add(start.get(60, java.util.concurrent.TimeUnit.SECONDS));
      }
      assertEquals(40, seen.size(), "every reservation got its own range: " + seen);
      assertTrue(seen.stream().allMatch(start -> start % 10 == 0 && start < 400), seen.toString());
      assertEquals(400, tokens.counter(DelegationTokenStore.Counter.TOKEN_SEQUENCE));
    } finally {
      pool.shutdownNow();
    }
  }

  /** The store's operator queries: the tests of them are skipped for an engine that lacks the capability. */
  private AdminQueries adminQueries() {
    Optional<AdminQueries> admin = store.capability(AdminQueries.class);
    assumeTrue(admin.isPresent(), () -> store.describe() + " runs no administrative queries");
    return admin.get();
  }

  // ---------------------------------------------------------------------------------------------------------
  // read batches

  @Test
  void batchReturnsEveryKindOfReadForPresentAndMissingKeys() throws Exception {
    Inode dir = directory(20_001, ROOT_ID, "d");
    Inode f = file(20_002, 20_001, "f");
    Inode g = file(20_003, ROOT_ID, "g");
    Block b0 = new Block(20_002, 3_000, 0, 100, 1_001, BlockState.COMPLETE);
    Block b1 = new Block(20_002, 2_000, 1, 50, 1_002, BlockState.UNDER_CONSTRUCTION);
    Block elsewhere = new Block(20_003, 4_000, 0, 1, 1_003, BlockState.COMPLETE);
    Replica r1 = new Replica(20_002, 3_000, "DS-1");
    Replica r2 = new Replica(20_002, 3_000, "DS-2");
    Replica otherReplica = new Replica(20_003, 4_000, "DS-1");
    UcReplica u1 = new UcReplica(20_002, 2_000, "DS-1", UcReplicaState.RECEIVING, 1_002);
    UcReplica otherUc = new UcReplica(20_003, 4_000, "DS-3", UcReplicaState.EXPECTED, 1_003);
    Lease lease = new Lease("client-1", 77L);
    RetryEntry entry = retryEntry("client-1", 5, 1_000L, 1, 2, 3);
    inTransaction(tx -> {
      List.of(dir, f, g).forEach(tx.inodes()::insert);
      List.of(b1, elsewhere, b0).forEach(tx.blocks()::insert);
      List.of(r1, otherReplica, r2).forEach(tx.replicas()::insert);
      List.of(otherUc, u1).forEach(tx.ucReplicas()::insert);
      tx.leases().put(lease);
      tx.retryCache().insert(entry);
    });
    InodeKey missing = new InodeKey(ROOT_ID, ROOT_ID, "missing");

    // a read-only transaction may run the batch's reads side by side (Ignite does): the answers are the same
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        ReadBatch batch = tx.batch();
        assertTrue(batch.isEmpty());
        ReadBatch.Result<Optional<Inode>> present = batch.inode(f.key(), LockMode.SHARED);
        assertFalse(batch.isEmpty());
        ReadBatch.Result<Optional<Inode>> absent = batch.inode(missing, LockMode.EXCLUSIVE);
        ReadBatch.Result<Map<InodeKey, Inode>> several =
            batch.inodes(List.of(g.key(), missing, dir.key()), LockMode.NONE);
        ReadBatch.Result<Map<InodeKey, Inode>> noneFound = batch.inodes(List.of(missing), LockMode.SHARED);
        ReadBatch.Result<Map<InodeKey, Inode>> noKeys = batch.inodes(List.of(), LockMode.EXCLUSIVE);
        ReadBatch.Result<Optional<Inode>> byId = batch.inodeById(20_002, LockMode.EXCLUSIVE);
        ReadBatch.Result<Optional<Inode>> byMissingId = batch.inodeById(20_009, LockMode.NONE);
        ReadBatch.Result<List<Block>> blocks = batch.blocksOfFile(20_002);
        ReadBatch.Result<List<Block>> noBlocks = batch.blocksOfFile(20_009);
        ReadBatch.Result<List<Replica>> replicas = batch.replicasOfFile(20_002);
        ReadBatch.Result<List<Replica>> noReplicas = batch.replicasOfFile(20_009);
        ReadBatch.Result<List<UcReplica>> ucReplicas = batch.ucReplicasOfFile(20_002);
        ReadBatch.Result<List<UcReplica>> noUcReplicas = batch.ucReplicasOfFile(20_001);
        ReadBatch.Result<Optional<Lease>> leaseRead = batch.lease("client-1");
        ReadBatch.Result<Optional<Lease>> noLease = batch.lease("client-9");
        ReadBatch.Result<Optional<RetryEntry>> retry = batch.retryEntry(entry.key());
        ReadBatch.Result<Optional<RetryEntry>> noRetryOfCall = batch.retryEntry(new RetryKey("client-1", 6));
        ReadBatch.Result<Optional<RetryEntry>> noRetryOfClient = batch.retryEntry(new RetryKey("client-2", 5));
        List<ReadBatch.Result<?>> handles = List.of(present, absent, several, noneFound, noKeys, byId, byMissingId,
            blocks, noBlocks, replicas, noReplicas, ucReplicas, noUcReplicas, leaseRead, noLease, retry,
            noRetryOfCall, noRetryOfClient);
        for (int i = 0; i < handles.size(); i++) {
          assertThrows(IllegalStateException.class, handles.get(i)::get, "read " + i + " of the batch before execute");
        }

        batch.execute();

        assertEquals(Optional.of(f), present.get());
        assertEquals(Optional.empty(), absent.get());
        assertEquals(Map.of(g.key(), g, dir.key(), dir), Map.copyOf(several.get()));
        assertEquals(Map.of(), noneFound.get());
        assertEquals(Map.of(), noKeys.get());
        assertEquals(Optional.of(f), byId.get());
        assertEquals(Optional.empty(), byMissingId.get());
        assertEquals(List.of(b0, b1), blocks.get());
        assertEquals(List.of(), noBlocks.get());
        assertEquals(2, replicas.get().size(), replicas.get().toString());
        assertEquals(Set.of(r1, r2), Set.copyOf(replicas.get()));
        assertEquals(List.of(), noReplicas.get());
        assertEquals(List.of(u1), ucReplicas.get());
        assertEquals(List.of(), noUcReplicas.get());
        assertEquals(Optional.of(lease), leaseRead.get());
        assertEquals(Optional.empty(), noLease.get());
        assertSameRetryEntry(entry, retry.get());
        assertEquals(Optional.empty(), noRetryOfCall.get());
        assertEquals(Optional.empty(), noRetryOfClient.get());

        assertThrows(IllegalStateException.class, batch::execute, "a batch executes once");
        assertEquals(Optional.of(f), present.get(), "a refused second execute must not disturb the results");
        tx.commit();
      }
    }
  }

  @Test
  void emptyBatchExecutesOnceAndLeavesTheTransactionUsable() throws Exception {
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        ReadBatch empty = tx.batch();
        assertTrue(empty.isEmpty());
        empty.execute();
        assertThrows(IllegalStateException.class, empty::execute);
        ReadBatch next = tx.batch();
        assertTrue(next.isEmpty(), "each batch starts empty");
        ReadBatch.Result<Optional<Inode>> root = next.inode(ROOT.key(), LockMode.SHARED);
        next.execute();
        assertEquals(Optional.of(ROOT), root.get());
        tx.commit();
      }
    }
  }

  @Test
  void batchIsOneRoundTripWhateverItHolds() throws Exception {
    List<Inode> files = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      files.add(file(20_000 + i, ROOT_ID, "f" + i));
    }
    insertCommitted(files.toArray(new Inode[0]));
    inTransaction(tx -> {
      tx.blocks().insert(new Block(20_007, 1_007, 0, 7, 1_001, BlockState.COMPLETE));
      tx.leases().put(new Lease("client-1", 1L));
    });
    for (boolean readOnly : new boolean[] {false, true}) {
      try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
        assertEquals(readOnly, tx.readOnly());
        int before = tx.roundTrips();
        ReadBatch single = tx.batch();
        ReadBatch.Result<Optional<Inode>> first = single.inode(files.get(0).key(), LockMode.EXCLUSIVE);
        single.execute();
        assertOneRoundTrip(tx.roundTrips() - before, "a batch of one read");
        int afterSingle = tx.roundTrips();
        assertEquals(Optional.of(files.get(0)), first.get());

        ReadBatch many = tx.batch();
        List<ReadBatch.Result<Optional<Inode>>> byKey = new ArrayList<>();
        List<ReadBatch.Result<Optional<Inode>>> byId = new ArrayList<>();
        List<ReadBatch.Result<List<Block>>> blocks = new ArrayList<>();
        for (Inode file : files) {
          byKey.add(many.inode(file.key(), LockMode.SHARED));
          byId.add(many.inodeById(file.id(), LockMode.NONE));
          blocks.add(many.blocksOfFile(file.id()));
          many.replicasOfFile(file.id());
          many.ucReplicasOfFile(file.id());
        }
        ReadBatch.Result<Map<InodeKey, Inode>> all =
            many.inodes(files.stream().map(Inode::key).collect(Collectors.toList()), LockMode.NONE);
        ReadBatch.Result<Optional<Lease>> lease = many.lease("client-1");
        many.retryEntry(new RetryKey("client-1", 1));
        assertEquals(afterSingle, tx.roundTrips(), "adding reads to a batch sends nothing");
        many.execute();
        assertOneRoundTrip(tx.roundTrips() - afterSingle, "a batch of " + (files.size() * 5 + 3) + " reads");

        for (int i = 0; i < files.size(); i++) {
          assertEquals(Optional.of(files.get(i)), byKey.get(i).get());
          assertEquals(Optional.of(files.get(i)), byId.get(i).get());
          assertEquals(i == 7 ? 1 : 0, blocks.get(i).get().size());
        }
        assertEquals(files.size(), all.get().size());
        assertEquals(Optional.of(new Lease("client-1", 1L)), lease.get());
        tx.commit();
      }
    }
  }

  @Test
  void smallWriteCommitIsOneRoundTripAndReadOnlyCommitIsNone() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode doomed = file(20_002, ROOT_ID, "doomed");
    insertCommitted(f, doomed);
    Inode added = file(20_003, ROOT_ID, "added");
    Block block = new Block(20_003, 1_001, 0, 10, 1_001, BlockState.COMPLETE);
    RetryEntry entry = retryEntry("client-1", 1, 5_000L, 9);
    try (Transaction tx = begin()) {
      tx.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
      int before = tx.roundTrips();
      tx.inodes().update(f.withSize(5));
      tx.inodes().delete(doomed.key());
      tx.inodes().insert(added);
      tx.blocks().insert(block);
      tx.blockLookup().insert(1_001, 20_003);
      tx.replicas().insert(new Replica(20_003, 1_001, "DS-1"));
      tx.ucReplicas().insert(new UcReplica(20_003, 1_002, "DS-1", UcReplicaState.EXPECTED, 1_002));
      tx.leases().put(new Lease("client-1", 3L));
      tx.leasePaths().insert(new LeasePath("client-1", 20_003));
      tx.datanodes().insert(datanode("dn-1", 1));
      tx.storages().insert(new StorageRecord("dn-1", "DS-1", "DISK", false, 1, 1, 1, 1));
      tx.invalidations().insert(new InvalidatedBlock("dn-1", 1_003, 1_003, 0));
      tx.retryCache().insert(entry);
      assertEquals(before, tx.roundTrips(), "writes are buffered until commit");
      tx.commit();
      assertOneRoundTrip(tx.roundTrips() - before, "a small transaction's writes and commit travel together");
    }
    assertEquals(Optional.of(f.withSize(5)), inode(f.key()));
    assertEquals(Optional.empty(), inode(doomed.key()));
    assertEquals(Optional.of(added), inode(added.key()));
    try (Transaction tx = begin()) {
      assertEquals(List.of(block), tx.blocks().ofFile(20_003));
      assertEquals(Map.of(1_001L, 20_003L), tx.blockLookup().inodesOf(List.of(1_001L)));
      assertEquals(1, tx.replicas().ofFile(20_003).size());
      assertEquals(1, tx.ucReplicas().ofFile(20_003).size());
      assertEquals(Optional.of(new Lease("client-1", 3L)), tx.leases().get("client-1", LockMode.NONE));
      assertEquals(List.of(new LeasePath("client-1", 20_003)), tx.leasePaths().ofHolder("client-1"));
      assertEquals(1, tx.datanodes().all().size());
      assertEquals(1, tx.storages().all().size());
      assertEquals(1, tx.invalidations().ofDatanode("dn-1", 10).size());
      assertSameRetryEntry(entry, tx.retryCache().get(entry.key()));
    }

    try (Transaction ro = store.beginReadOnly()) {
      assertTrue(ro.readOnly());
      assertEquals(Optional.of(f.withSize(5)), ro.inodes().get(f.key(), LockMode.SHARED));
      ReadBatch batch = ro.batch();
      batch.inode(added.key(), LockMode.EXCLUSIVE);
      batch.blocksOfFile(20_003);
      batch.execute();
      int before = ro.roundTrips();
      ro.commit();
      assertEquals(before, ro.roundTrips(), "a read-only commit must not contact the store");
    }
    try (Transaction ro = store.beginReadOnly()) {
      ro.commit();
      assertEquals(0, ro.roundTrips());
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // read batches: locks and order

  @Test
  void locksTakenByABatchAreHeldUntilCommit() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode g = file(20_002, ROOT_ID, "g");
    Inode h = file(20_003, ROOT_ID, "h");
    insertCommitted(f, g, h);
    try (Transaction holder = begin()) {
      assertFalse(holder.readOnly());
      ReadBatch batch = holder.batch();
      batch.inode(f.key(), LockMode.EXCLUSIVE);
      batch.inodes(List.of(g.key()), LockMode.SHARED);
      batch.inodeById(h.id(), LockMode.EXCLUSIVE);
      batch.blocksOfFile(f.id());
      batch.execute();

      Future<Inode> onF = readInAnotherThread(f.key(), LockMode.EXCLUSIVE);
      Future<Inode> onG = readInAnotherThread(g.key(), LockMode.EXCLUSIVE);
      Future<Inode> onH = readInAnotherThread(h.key(), LockMode.SHARED);
      assertStillWaiting(onF);
      assertFalse(onG.isDone(), "a shared lock taken by a batch did not block an exclusive read");
      assertFalse(onH.isDone(), "an exclusive lock taken by a batch's read by id did not block a shared read");
      holder.inodes().update(f.withSize(1));
      holder.inodes().update(g.withSize(2));
      holder.inodes().update(h.withSize(3));
      holder.commit();
      assertEquals(1, onF.get(WAIT_SECONDS, SECONDS).size(), "the waiter must see the committed update");
      assertEquals(2, onG.get(WAIT_SECONDS, SECONDS).size());
      assertEquals(3, onH.get(WAIT_SECONDS, SECONDS).size());
    }
  }

  @Test
  void readsOfABatchAfterALockingReadSeeTheStateUnderThatLock() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    Inode grown = f.withSize(10);
    Block block = new Block(20_001, 1_001, 0, 10, 1_001, BlockState.COMPLETE);
    Replica replica = new Replica(20_001, 1_001, "DS-1");
    UcReplica ucReplica = new UcReplica(20_001, 1_002, "DS-2", UcReplicaState.RECEIVING, 1_002);
    Lease lease = new Lease("client-1", 10L);
    RetryEntry entry = retryEntry("client-1", 1, 9_000L, 4, 2);
    List<Object> expected = List.of(Optional.of(grown), List.of(block), List.of(replica), List.of(ucReplica),
        Optional.of(lease), Optional.of("client-1/1"));
    Future<List<Object>> readWrite;
    try (Transaction holder = begin()) {
      holder.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
      readWrite = threads.submit(retryingTransient(() -> lockThenReadFile(f, false)));
      assertStillWaiting(readWrite);
      // a read-only batch does not wait for the writer: it sees the last committed state, all of it
      assertEquals(List.of(Optional.of(f), List.of(), List.of(), List.of(), Optional.empty(), Optional.empty()),
          lockThenReadFile(f, true), "read-only batch during the write");
      holder.inodes().update(grown);
      holder.blocks().insert(block);
      holder.replicas().insert(replica);
      holder.ucReplicas().insert(ucReplica);
      holder.leases().put(lease);
      holder.retryCache().insert(entry);
      holder.commit();
    }
    assertEquals(expected, readWrite.get(WAIT_SECONDS, SECONDS), "read-write batch");
    assertEquals(expected, lockThenReadFile(f, true), "read-only batch after the write");
  }

  // ---------------------------------------------------------------------------------------------------------
  // read-only transactions

  @Test
  void readOnlyTransactionRefusesToCommitWritesAndWritesNothing() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    List<TransactionBody> writes = List.of(
        tx -> tx.inodes().insert(file(20_002, ROOT_ID, "g")),
        tx -> tx.inodes().update(f.withSize(5)),
        tx -> tx.inodes().delete(f.key()),
        tx -> tx.blocks().insert(new Block(20_001, 1_001, 0, 1, 1_001, BlockState.COMPLETE)),
        tx -> tx.leases().put(new Lease("client-1", 1L)),
        tx -> tx.retryCache().insert(retryEntry("client-1", 1, 1_000L, 1)));
    // Twice round, more transactions than a small connection pool holds: a refused commit must release them.
    for (int round = 0; round < 2; round++) {
      for (TransactionBody write : writes) {
        try (Transaction ro = store.beginReadOnly()) {
          assertTrue(ro.readOnly());
          assertEquals(Optional.of(f), ro.inodes().get(f.key(), LockMode.SHARED));
          write.run(ro);
          assertThrows(IllegalStateException.class, ro::commit);
        }
      }
    }
    assertEquals(Optional.of(f), inode(f.key()));
    assertEquals(Optional.empty(), inodeById(20_002));
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.blocks().ofFile(20_001));
      assertEquals(Optional.empty(), tx.leases().get("client-1", LockMode.NONE));
      assertEquals(Optional.empty(), tx.retryCache().get(new RetryKey("client-1", 1)));
    }
  }

  @Test
  void readOnlyLocksEndWithTheBatchOrReadThatTookThem() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode g = file(20_002, ROOT_ID, "g");
    insertCommitted(f, g);
    try (Transaction ro = store.beginReadOnly()) {
      ReadBatch batch = ro.batch();
      ReadBatch.Result<Optional<Inode>> lockedF = batch.inode(f.key(), LockMode.EXCLUSIVE);
      ReadBatch.Result<Map<InodeKey, Inode>> lockedG = batch.inodes(List.of(g.key()), LockMode.EXCLUSIVE);
      batch.blocksOfFile(f.id());
      batch.execute();
      assertEquals(Optional.of(f), lockedF.get());
      assertEquals(Map.of(g.key(), g), Map.copyOf(lockedG.get()));
      assertEquals(Optional.of(g), ro.inodes().getById(g.id(), LockMode.EXCLUSIVE));

      // The read-only transaction is still open: another one locks and updates both rows without waiting for it.
      Future<Void> writer = threads.submit(() -> {
        inTransaction(tx -> {
          tx.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
          tx.inodes().get(g.key(), LockMode.EXCLUSIVE).orElseThrow();
          tx.inodes().update(f.withSize(1));
          tx.inodes().update(g.withSize(2));
        });
        return null;
      });
      writer.get(WAIT_SECONDS, SECONDS);

      assertEquals(1, ro.inodes().get(f.key(), LockMode.SHARED).orElseThrow().size(),
          "a read-only transaction reads the latest committed version");
      ReadBatch again = ro.batch();
      ReadBatch.Result<Optional<Inode>> gAgain = again.inode(g.key(), LockMode.EXCLUSIVE);
      again.execute();
      assertEquals(Optional.of(g.withSize(2)), gAgain.get());
      ro.commit();
    }
  }

  @Test
  void readOnlyBatchesNeverWaitForWritersLocks() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode g = file(20_002, ROOT_ID, "g");
    insertCommitted(f, g);
    try (Transaction writer = begin()) {
      writer.inodes().get(g.key(), LockMode.EXCLUSIVE).orElseThrow();
      writer.inodes().update(g.withSize(9));
      Future<List<Inode>> readOnly = threads.submit(() -> {
        try (Transaction ro = store.beginReadOnly()) {
          ReadBatch batch = ro.batch();
          ReadBatch.Result<Optional<Inode>> first = batch.inode(f.key(), LockMode.EXCLUSIVE);
          ReadBatch.Result<Optional<Inode>> second = batch.inode(g.key(), LockMode.SHARED);
          batch.execute();
          ro.commit();
          return List.of(first.get().orElseThrow(), second.get().orElseThrow());
        }
      });
      assertEquals(List.of(f, g), readOnly.get(WAIT_SECONDS, SECONDS),
          "the read-only batch answers at once with the last committed versions");
      writer.commit();
    }
    assertEquals(9, inode(g.key()).orElseThrow().size());
  }

  @Test
  void transactionsAfterReadOnlyOnesStillHoldTheirLocksUntilCommit() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    insertCommitted(f);
    for (int i = 0; i < 3; i++) {
      try (Transaction ro = store.beginReadOnly()) {
        ro.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
        if (i != 1) {
          ro.commit(); // the second one is closed without commit
        }
      }
    }
    try (Transaction holder = begin()) {
      holder.inodes().get(f.key(), LockMode.EXCLUSIVE).orElseThrow();
      Future<Inode> waiter = readInAnotherThread(f.key(), LockMode.EXCLUSIVE);
      assertStillWaiting(waiter);
      holder.inodes().update(f.withSize(2));
      holder.commit();
      assertEquals(2, waiter.get(WAIT_SECONDS, SECONDS).size());
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // commit atomicity, small and large transactions

  @Test
  void failedSmallCommitAppliesNoneOfItsWrites() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode doomed = file(20_002, ROOT_ID, "doomed");
    Inode changed = file(20_003, ROOT_ID, "changed");
    insertCommitted(f, doomed, changed);
    try (Transaction tx = begin()) {
      tx.inodes().delete(doomed.key());
      tx.inodes().insert(file(20_010, ROOT_ID, "new"));
      tx.inodes().insert(file(20_011, ROOT_ID, "f")); // f's key, committed earlier
      tx.inodes().update(changed.withSize(9));
      tx.blocks().insert(new Block(20_010, 1_001, 0, 1, 1_001, BlockState.COMPLETE));
      tx.leases().put(new Lease("client-1", 1L));
      tx.leasePaths().insert(new LeasePath("client-1", 20_010));
      tx.retryCache().insert(retryEntry("client-1", 1, 1_000L, 1));
      StoreException error = assertThrows(StoreException.class, tx::commit);
      assertFalse(error instanceof TransientStoreException, "a constraint violation is not transient: " + error);
    }
    assertNothingOfTheFailedTransaction(f, doomed, changed);
    // The store (and the connection the failed transaction used) still works.
    inTransaction(tx -> tx.inodes().insert(file(20_010, ROOT_ID, "new")));
    assertEquals(Optional.of(file(20_010, ROOT_ID, "new")), inodeById(20_010));
  }

  @Test
  void failedLargeCommitAppliesNoneOfItsWrites() throws Exception {
    Inode f = file(20_001, ROOT_ID, "f");
    Inode doomed = file(20_002, ROOT_ID, "doomed");
    Inode changed = file(20_003, ROOT_ID, "changed");
    insertCommitted(f, doomed, changed);
    try (Transaction tx = begin()) {
      tx.inodes().delete(doomed.key());
      for (int i = 0; i < 300; i++) {
        tx.inodes().insert(i == 150 ? file(21_150, ROOT_ID, "f") : file(21_000 + i, ROOT_ID, "n" + i));
      }
      tx.inodes().update(changed.withSize(9));
      tx.blocks().insert(new Block(21_000, 1_001, 0, 1, 1_001, BlockState.COMPLETE));
      tx.leases().put(new Lease("client-1", 1L));
      tx.retryCache().insert(retryEntry("client-1", 1, 1_000L, 1));
      StoreException error = assertThrows(StoreException.class, tx::commit);
      assertFalse(error instanceof TransientStoreException, "a constraint violation is not transient: " + error);
    }
    assertNothingOfTheFailedTransaction(f, doomed, changed);
    try (Transaction tx = begin()) {
      assertEquals(Optional.empty(), tx.inodes().getById(21_000, LockMode.NONE));
      assertEquals(Optional.empty(), tx.inodes().getById(21_299, LockMode.NONE));
      assertEquals(List.of(), tx.blocks().ofFile(21_000));
    }
  }

  @Test
  void failureInALaterTableOfALargeCommitUndoesTheEarlierTables() throws Exception {
    RetryEntry first = retryEntry("client-1", 1, 1_000L, 1);
    inTransaction(tx -> tx.retryCache().insert(first));
    try (Transaction tx = begin()) {
      for (int i = 0; i < 300; i++) {
        tx.inodes().insert(file(21_000 + i, ROOT_ID, "n" + i));
        tx.blocks().insert(new Block(21_000 + i, 1_000 + i, 0, 1, 1_001, BlockState.COMPLETE));
      }
      tx.retryCache().insert(retryEntry("client-1", 1, 2_000L, 2)); // the key exists
      assertThrows(StoreException.class, tx::commit);
    }
    assertEquals(List.of(), names(children(ROOT_ID, null, 1_000)), "inodes of the failed transaction");
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.blocks().ofFiles(List.of(21_000L, 21_150L, 21_299L)));
      assertSameRetryEntry(first, tx.retryCache().get(first.key()));
    }
  }

  @Test
  void largeCommitAppliesEveryWrite() throws Exception {
    List<Inode> old = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      old.add(file(20_000 + i, ROOT_ID, "old" + i));
    }
    insertCommitted(old.toArray(new Inode[0]));
    Set<Inode> expected = new HashSet<>();
    List<Block> blocks = new ArrayList<>();
    try (Transaction tx = begin()) {
      for (int i = 0; i < 30; i++) {
        Inode inode = old.get(i);
        if (i < 10) {
          tx.inodes().delete(inode.key()); // gone
        } else if (i < 20) {
          tx.inodes().update(inode.withSize(i)); // changed
          expected.add(inode.withSize(i));
        } else {
          Inode replacement = file(22_000 + i, ROOT_ID, inode.name()).withSize(1); // key freed and reused
          tx.inodes().delete(inode.key());
          tx.inodes().insert(replacement);
          expected.add(replacement);
        }
      }
      for (int i = 0; i < 300; i++) {
        Inode added = file(21_000 + i, ROOT_ID, "new" + i);
        tx.inodes().insert(added);
        expected.add(added);
        if (i % 3 == 0) {
          Block block = new Block(21_000 + i, 1_000 + i, 0, i, 1_001, BlockState.COMPLETE);
          tx.blocks().insert(block);
          blocks.add(block);
        }
      }
      tx.leases().put(new Lease("client-1", 5L));
      tx.retryCache().insert(retryEntry("client-1", 1, 1_000L, 1));
      tx.commit();
    }
    List<Inode> listed = children(ROOT_ID, null, 1_000);
    assertEquals(expected.size(), listed.size());
    assertEquals(expected, Set.copyOf(listed));
    try (Transaction tx = begin()) {
      List<Long> ids = blocks.stream().map(Block::inodeId).collect(Collectors.toList());
      assertEquals(blocks, tx.blocks().ofFiles(ids));
      assertEquals(Optional.of(new Lease("client-1", 5L)), tx.leases().get("client-1", LockMode.NONE));
      assertTrue(tx.retryCache().get(new RetryKey("client-1", 1)).isPresent());
      assertEquals(Optional.empty(), tx.inodes().getById(20_000, LockMode.NONE));
      assertEquals(Optional.empty(), tx.inodes().getById(20_025, LockMode.NONE));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // retry cache

  @Test
  void retryEntriesReadBackAfterCommit() throws Exception {
    byte[] everyByte = new byte[256];
    for (int i = 0; i < everyByte.length; i++) {
      everyByte[i] = (byte) i;
    }
    RetryEntry a1 = new RetryEntry(new RetryKey("client-a", 1), "create", everyByte, 1_000L);
    RetryEntry a2 = new RetryEntry(new RetryKey("client-a", -2), "delete", new byte[0], Long.MAX_VALUE);
    RetryEntry b1 = new RetryEntry(new RetryKey("client-b", 1), "rename", new byte[] {7}, 0L);
    try (Transaction writer = begin(); Transaction reader = begin()) {
      List.of(a1, a2, b1).forEach(writer.retryCache()::insert);
      assertEquals(Optional.empty(), reader.retryCache().get(a1.key()), "an uncommitted entry was visible");
      writer.commit();
      assertSameRetryEntry(a1, reader.retryCache().get(a1.key()));
    }
    try (Transaction tx = begin()) {
      assertSameRetryEntry(a1, tx.retryCache().get(a1.key()));
      assertSameRetryEntry(a2, tx.retryCache().get(a2.key()));
      assertSameRetryEntry(b1, tx.retryCache().get(b1.key()));
      assertEquals(Optional.empty(), tx.retryCache().get(new RetryKey("client-a", 3)));
      assertEquals(Optional.empty(), tx.retryCache().get(new RetryKey("client-a", 2)));
      assertEquals(Optional.empty(), tx.retryCache().get(new RetryKey("client-c", 1)));
    }
  }

  @Test
  void insertingAnExistingRetryKeyFailsTheCommitAndAppliesNothing() throws Exception {
    RetryEntry first = retryEntry("client-1", 1, 1_000L, 1);
    inTransaction(tx -> tx.retryCache().insert(first));
    try (Transaction tx = begin()) {
      tx.inodes().insert(file(20_001, ROOT_ID, "f"));
      tx.leases().put(new Lease("client-1", 1L));
      tx.retryCache().insert(retryEntry("client-1", 2, 1_000L, 2));
      tx.retryCache().insert(retryEntry("client-1", 1, 2_000L, 3)); // the key exists
      assertThrows(StoreException.class, tx::commit);
    }
    assertEquals(Optional.empty(), inodeById(20_001));
    try (Transaction tx = begin()) {
      assertEquals(Optional.empty(), tx.leases().get("client-1", LockMode.NONE));
      assertEquals(Optional.empty(), tx.retryCache().get(new RetryKey("client-1", 2)));
      assertSameRetryEntry(first, tx.retryCache().get(first.key()));
    }

    // A retry racing its first attempt: both insert the entry, the second commit fails and applies nothing.
    try (Transaction attempt = begin(); Transaction retry = begin()) {
      attempt.inodes().insert(file(20_002, ROOT_ID, "by-attempt"));
      attempt.retryCache().insert(retryEntry("client-2", 7, 1_000L, 1));
      retry.inodes().insert(file(20_003, ROOT_ID, "by-retry"));
      retry.retryCache().insert(retryEntry("client-2", 7, 1_000L, 2));
      attempt.commit();
      assertThrows(StoreException.class, retry::commit);
    }
    assertEquals(Optional.of(file(20_002, ROOT_ID, "by-attempt")), inodeById(20_002));
    assertEquals(Optional.empty(), inodeById(20_003));
    try (Transaction tx = begin()) {
      assertEquals(1, tx.retryCache().get(new RetryKey("client-2", 7)).orElseThrow().result()[0]);
    }
  }

  @Test
  void purgeDeletesOnlyExpiredEntriesUpToTheLimit() throws Exception {
    assertEquals(0, store.purgeExpiredRetryEntries(Long.MAX_VALUE, 10), "nothing to purge");
    List<RetryEntry> entries = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      entries.add(retryEntry("client-" + (i % 2), i, 100L * i, i)); // expire at 100, 200 .. 600
    }
    inTransaction(tx -> entries.forEach(tx.retryCache()::insert));

    assertEquals(0, store.purgeExpiredRetryEntries(100, 10), "an entry expiring at now is not expired yet");
    assertEquals(Set.of(1, 2, 3, 4, 5, 6), remainingRetryCalls(entries));

    assertEquals(2, store.purgeExpiredRetryEntries(350, 2));
    Set<Integer> remaining = remainingRetryCalls(entries);
    assertEquals(4, remaining.size(), remaining.toString());
    assertTrue(remaining.containsAll(Set.of(4, 5, 6)), "unexpired entries were purged: " + remaining);

    assertEquals(1, store.purgeExpiredRetryEntries(350, 2));
    assertEquals(Set.of(4, 5, 6), remainingRetryCalls(entries));
    assertEquals(0, store.purgeExpiredRetryEntries(350, 2));

    assertEquals(2, store.purgeExpiredRetryEntries(600, 100));
    assertEquals(Set.of(6), remainingRetryCalls(entries));
    try (Transaction tx = begin()) {
      assertSameRetryEntry(entries.get(5), tx.retryCache().get(entries.get(5).key()));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // helpers

  /** Work done inside a transaction. */
  @FunctionalInterface
  protected interface TransactionBody {
    void run(Transaction tx) throws StoreException;
  }

  protected final Transaction begin() throws StoreException {
    return store.begin();
  }

  protected final void inTransaction(TransactionBody body) throws StoreException {
    try (Transaction tx = begin()) {
      body.run(tx);
      tx.commit();
    }
  }

  protected final void insertCommitted(Inode... inodes) throws StoreException {
    inTransaction(tx -> {
      for (Inode inode : inodes) {
        tx.inodes().insert(inode);
      }
    });
  }

  protected final Optional<Inode> inode(InodeKey key) throws StoreException {
    try (Transaction tx = begin()) {
      return tx.inodes().get(key, LockMode.NONE);
    }
  }

  protected final Optional<Inode> inodeById(long id) throws StoreException {
    try (Transaction tx = begin()) {
      return tx.inodes().getById(id, LockMode.NONE);
    }
  }

  private List<Inode> children(long directoryId, String startAfter, int limit) throws StoreException {
    try (Transaction tx = begin()) {
      return tx.inodes().children(directoryId, directoryId, startAfter, limit, LockMode.NONE);
    }
  }

  private void insertChildren(long parentId, long firstId, List<String> names) throws StoreException {
    List<Inode> inodes = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      inodes.add(file(firstId + i, parentId, names.get(i)));
    }
    insertCommitted(inodes.toArray(new Inode[0]));
  }

  private static List<String> names(List<Inode> inodes) {
    return inodes.stream().map(Inode::name).collect(Collectors.toList());
  }

  private static List<String> sortedByUtf8Bytes(List<String> names) {
    List<String> sorted = new ArrayList<>(names);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
        b.getBytes(StandardCharsets.UTF_8)));
    return sorted;
  }

  /** Reads {@code key} with {@code lock} in a new transaction on another thread, then commits. */
  private Future<Inode> readInAnotherThread(InodeKey key, LockMode lock) throws InterruptedException {
    CountDownLatch aboutToRead = new CountDownLatch(1);
    Future<Inode> future = threads.submit(retryingTransient(() -> {
      try (Transaction tx = begin()) {
        aboutToRead.countDown();
        Inode inode = tx.inodes().get(key, lock).orElseThrow();
        tx.commit();
        return inode;
      }
    }));
    assertTrue(aboutToRead.await(WAIT_SECONDS, SECONDS), "the reader thread did not start");
    return future;
  }

  /**
   * {@code attempt} run again after each {@link TransientStoreException}, until {@link #WAIT_SECONDS} pass: what a
   * caller of the store does. A transaction whose lock request meets a conflicting lock either waits for it or, on an
   * engine that prevents deadlocks by wait-die (design 020), fails at once with a transient error; either way it never
   * proceeds while the holder holds the lock, which is what the waiting tests check through this retry.
   */
  protected static <T> Callable<T> retryingTransient(Callable<T> attempt) {
    return () -> {
      long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
      while (true) {
        try {
          return attempt.call();
        } catch (TransientStoreException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(20);
        }
      }
    };
  }

  private static void assertStillWaiting(Future<?> waiter) throws InterruptedException {
    Thread.sleep(HOLD_MS);
    assertFalse(waiter.isDone(), "the read did not wait for the lock holder");
  }

  /** Locks {@code first} then {@code second} exclusively, bumping first's size; reports how it ended. */
  private Callable<String> lockBoth(InodeKey first, InodeKey second, CyclicBarrier bothHoldFirstLock) {
    return () -> {
      try (Transaction tx = begin()) {
        Inode mine;
        try {
          mine = tx.inodes().get(first, LockMode.EXCLUSIVE).orElseThrow();
        } catch (TransientStoreException e) {
          // an engine with next-key locks (Ignite) may already refuse the first lock to the younger side, whose
          // locks must go before the barrier: the older side may be waiting for them to reach it
          tx.rollback();
          bothHoldFirstLock.await(WAIT_SECONDS, SECONDS);
          return "transient";
        }
        bothHoldFirstLock.await(WAIT_SECONDS, SECONDS);
        try {
          tx.inodes().get(second, LockMode.EXCLUSIVE).orElseThrow();
        } catch (TransientStoreException e) {
          return "transient";
        }
        tx.inodes().update(mine.withSize(1));
        tx.commit();
        return "committed";
      }
    };
  }

  /** A retry entry for call {@code callId} of {@code clientId}, recording operation "op" with result bytes. */
  protected static RetryEntry retryEntry(String clientId, int callId, long expiresAtMs, int... resultBytes) {
    byte[] result = new byte[resultBytes.length];
    for (int i = 0; i < result.length; i++) {
      result[i] = (byte) resultBytes[i];
    }
    return new RetryEntry(new RetryKey(clientId, callId), "op", result, expiresAtMs);
  }

  /** Compares field by field: a record's equals compares the result arrays by identity. */
  private static void assertSameRetryEntry(RetryEntry expected, Optional<RetryEntry> actual) {
    assertTrue(actual.isPresent(), "no retry entry for " + expected.key());
    assertEquals(expected.key(), actual.get().key());
    assertEquals(expected.operation(), actual.get().operation());
    assertEquals(expected.expiresAtMs(), actual.get().expiresAtMs());
    assertTrue(Arrays.equals(expected.result(), actual.get().result()),
        Arrays.toString(expected.result()) + " != " + Arrays.toString(actual.get().result()));
  }

  /** The call ids of {@code entries} still in the retry cache. */
  private Set<Integer> remainingRetryCalls(List<RetryEntry> entries) throws StoreException {
    Set<Integer> remaining = new HashSet<>();
    try (Transaction tx = begin()) {
      for (RetryEntry entry : entries) {
        if (tx.retryCache().get(entry.key()).isPresent()) {
          remaining.add(entry.key().callId());
        }
      }
    }
    return remaining;
  }

  /** Locks {@code f} exclusively then, in the same batch, reads what hangs off it; commits. */
  private List<Object> lockThenReadFile(Inode f, boolean readOnly) throws StoreException {
    try (Transaction tx = readOnly ? store.beginReadOnly() : begin()) {
      ReadBatch batch = tx.batch();
      ReadBatch.Result<Optional<Inode>> inode = batch.inode(f.key(), LockMode.EXCLUSIVE);
      ReadBatch.Result<List<Block>> blocks = batch.blocksOfFile(f.id());
      ReadBatch.Result<List<Replica>> replicas = batch.replicasOfFile(f.id());
      ReadBatch.Result<List<UcReplica>> ucReplicas = batch.ucReplicasOfFile(f.id());
      ReadBatch.Result<Optional<Lease>> lease = batch.lease("client-1");
      ReadBatch.Result<Optional<RetryEntry>> retry = batch.retryEntry(new RetryKey("client-1", 1));
      batch.execute();
      tx.commit();
      return List.of(inode.get(), blocks.get(), replicas.get(), ucReplicas.get(), lease.get(),
          retry.get().map(e -> e.key().clientId() + "/" + e.key().callId()));
    }
  }

  /** Checks that the transaction of the failed-commit tests left no trace. */
  private void assertNothingOfTheFailedTransaction(Inode f, Inode doomed, Inode changed) throws StoreException {
    assertEquals(Optional.of(f), inode(f.key()));
    assertEquals(Optional.of(doomed), inode(doomed.key()), "a delete of the failed transaction was applied");
    assertEquals(Optional.of(changed), inode(changed.key()), "an update of the failed transaction was applied");
    assertEquals(Set.of(f, doomed, changed), Set.copyOf(children(ROOT_ID, null, 1_000)));
    try (Transaction tx = begin()) {
      assertEquals(List.of(), tx.blocks().ofFile(20_010));
      assertEquals(Optional.empty(), tx.leases().get("client-1", LockMode.NONE));
      assertEquals(List.of(), tx.leasePaths().ofHolder("client-1"));
      assertEquals(Optional.empty(), tx.retryCache().get(new RetryKey("client-1", 1)));
    }
  }

  /** One row in every table, for the format tests. */
  private void populateEveryTable() throws StoreException {
    inTransaction(tx -> {
      tx.inodes().insert(file(20_001, ROOT_ID, "f"));
      tx.inodes().insert(file(20_002, ROOT_ID, "g"));
      tx.blocks().insert(new Block(20_001, 1_001, 0, 10, 1_001, BlockState.COMPLETE));
      tx.blockLookup().insert(1_001, 20_001);
      tx.replicas().insert(new Replica(20_001, 1_001, "DS-1"));
      tx.ucReplicas().insert(new UcReplica(20_002, 1_002, "DS-1", UcReplicaState.RECEIVING, 1_002));
      tx.leases().put(new Lease("client-1", 5L));
      tx.leasePaths().insert(new LeasePath("client-1", 20_002));
      tx.datanodes().insert(datanode("dn-1", 1));
      tx.storages().insert(new StorageRecord("dn-1", "DS-1", "DISK", false, 1, 1, 1, 1));
      tx.invalidations().insert(new InvalidatedBlock("dn-1", 1_003, 1_003, 0));
      tx.replicationQueue().put(new QueuedBlock(20_001, 1_001, ReplicationPriority.HIGHEST, 0));
      tx.xattrs().put(new ExtendedAttribute(20_001, XAttrNamespace.USER, "a", new byte[] {1}));
      tx.acls().replace(20_001, sampleAcl(20_001));
      tx.quotas().insert(new DirectoryQuota(ROOT_ID, 10, -1, 3, 0));
    });
  }

  private void assertEveryTablePopulated() throws StoreException {
    try (Transaction tx = begin()) {
      assertEquals(1, tx.blocks().ofFile(20_001).size());
      assertEquals(Map.of(1_001L, 20_001L), tx.blockLookup().inodesOf(List.of(1_001L)));
      assertEquals(1, tx.replicas().onStorage("DS-1").size());
      assertEquals(1, tx.ucReplicas().ofFile(20_002).size());
      assertTrue(tx.leases().get("client-1", LockMode.NONE).isPresent());
      assertEquals(1, tx.leasePaths().ofHolder("client-1").size());
      assertEquals(1, tx.datanodes().all().size());
      assertEquals(1, tx.storages().all().size());
      assertEquals(1, tx.invalidations().ofDatanode("dn-1", 10).size());
      assertEquals(1, tx.replicationQueue().ofFile(20_001).size());
      assertEquals(1, tx.xattrs().ofInode(20_001).size());
      assertEquals(sampleAcl(20_001), tx.acls().ofInodes(List.of(20_001L)).get(20_001L));
      assertTrue(tx.quotas().get(ROOT_ID, LockMode.NONE).isPresent());
    }
  }

  protected static Inode directory(long id, long parentId, String name) {
    return Inode.builder().id(id).partitionId(parentId).parentId(parentId).name(name).directory(true)
        .permission((short) 0755).owner("hdfs").group("supergroup").modificationTime(1_000L).build();
  }

  protected static Inode file(long id, long parentId, String name) {
    return Inode.builder().id(id).partitionId(parentId).parentId(parentId).name(name).permission((short) 0644)
        .owner("alice").group("staff").modificationTime(2_000L).accessTime(1_500L).replication((short) 3)
        .preferredBlockSize(128L << 20).storagePolicy((byte) 7).build();
  }

  protected static DatanodeRecord datanode(String uuid, int n) {
    return new DatanodeRecord(uuid, "host-" + n, "10.0.0." + n, 9866 + n, 9864 + n, 0, 9867 + n, "/rack-" + n,
        "3.5.0", 1_000L * n, 10_000L * n, 100L * n, 9_000L * n, 50L * n, 900L * n, n, 500L * n);
  }
}

package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.InodeTable;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.spi.WriteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;

/**
 * {@code CANOPY_INODES}, keyed (partition id, parent id, name) and colocated by partition id, with
 * {@code CANOPY_INODE_IDS} as its unique key on the inode id (design 020).
 */
final class IgniteInodeTable implements InodeTable, IgniteBufferedTable {
  /** A read by id that keeps finding the inode moved gives up after this many tries (each is a concurrent move). */
  private static final int BY_ID_ATTEMPTS = 8;
  // The index is forced: on a small table the planner prefers a table scan, which inside a transaction locks the
  // whole table (design 020).
  static final String CHILDREN = "SELECT /*+ FORCE_INDEX(" + IgniteSchema.INODES + "_PK) */ * FROM " + IgniteSchema.INODES
      + " WHERE PART = ? AND PARENT = ? AND NAME > ? ORDER BY NAME LIMIT ?";
  static final String SPREAD_CHILDREN = "SELECT /*+ FORCE_INDEX(" + IgniteSchema.INODES + "_BY_PARENT) */ * FROM "
      + IgniteSchema.INODES
      + " WHERE PARENT = ? AND NAME > ? AND PART <> PARENT ORDER BY NAME LIMIT ?";

  private final IgniteSession session;
  private final RecordView<Tuple> view;
  private final RecordView<Tuple> ids;
  private final WriteBuffer<InodeKey, Inode> writes = new WriteBuffer<>("inodes");
  /**
   * Ids of the rows this transaction read or wrote, so that a delete can remove the id row without a read; concurrent:
   * a read-only batch's scans remember their rows side by side ({@link IgniteReadBatch}).
   */
  private final Map<InodeKey, Long> knownIds = new java.util.concurrent.ConcurrentHashMap<>();

  IgniteInodeTable(IgniteClient client, IgniteSession session) {
    this.session = session;
    this.view = IgniteViews.of(client, IgniteSchema.INODES);
    this.ids = IgniteViews.of(client, IgniteSchema.INODE_IDS);
  }

  static Tuple key(InodeKey key) {
    return Tuple.create(3).set("PART", key.partitionId()).set("PARENT", key.parentId())
        .set("NAME", bytes(key.name()));
  }

  static Tuple row(Inode inode) {
    return Tuple.create(22).set("PART", inode.partitionId()).set("PARENT", inode.parentId())
        .set("NAME", bytes(inode.name())).set("ID", inode.id()).set("IS_DIR", inode.directory())
        .set("PERMISSION", inode.permission()).set("OWNER_NAME", inode.owner()).set("GROUP_NAME", inode.group())
        .set("MODIFICATION_TIME", inode.modificationTime()).set("ACCESS_TIME", inode.accessTime())
        .set("SIZE", inode.size()).set("REPLICATION", inode.replication())
        .set("PREFERRED_BLOCK_SIZE", inode.preferredBlockSize()).set("STORAGE_POLICY", inode.storagePolicy())
        .set("UNDER_CONSTRUCTION", inode.underConstruction()).set("CLIENT_NAME", inode.clientName())
        .set("CLIENT_MACHINE", inode.clientMachine()).set("SYMLINK_TARGET", inode.symlinkTarget())
        .set("CHILDREN_COUNT", inode.childrenCount()).set("SPREAD_CHILDREN", inode.spreadsChildren())
        .set("HAS_QUOTA", inode.hasQuota()).set("SUBTREE_LOCK_OWNER", inode.subtreeLockOwner());
  }

  static Inode inode(Tuple row) {
    return new Inode(row.longValue("ID"), row.longValue("PART"), row.longValue("PARENT"), name(row.bytesValue("NAME")),
        row.booleanValue("IS_DIR"), row.shortValue("PERMISSION"), row.stringValue("OWNER_NAME"),
        row.stringValue("GROUP_NAME"), row.longValue("MODIFICATION_TIME"), row.longValue("ACCESS_TIME"),
        row.longValue("SIZE"), row.shortValue("REPLICATION"), row.longValue("PREFERRED_BLOCK_SIZE"),
        row.byteValue("STORAGE_POLICY"), row.booleanValue("UNDER_CONSTRUCTION"), row.stringValue("CLIENT_NAME"),
        row.stringValue("CLIENT_MACHINE"), row.stringValue("SYMLINK_TARGET"), row.longValue("CHILDREN_COUNT"),
        row.booleanValue("SPREAD_CHILDREN"), row.booleanValue("HAS_QUOTA"), row.longValue("SUBTREE_LOCK_OWNER"));
  }

  /**
   * A name as stored: its UTF-8 bytes, so that Ignite orders names as the DAL wants (byte order; its strings compare
   * in UTF-16 order, which puts U+1F600 before U+FF21).
   */
  static byte[] bytes(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  private static String name(byte[] stored) {
    return new String(stored, StandardCharsets.UTF_8);
  }

  private static byte[] startAfter(String name) {
    return bytes(name == null ? "" : name);
  }

  private Inode remember(Inode inode) {
    knownIds.put(inode.key(), inode.id());
    return inode;
  }

  @Override
  public Optional<Inode> get(InodeKey key, LockMode lock) throws StoreException {
    Tuple row = session.get(view, key(key), lock, "reading inode " + key);
    return row == null ? Optional.empty() : Optional.of(remember(inode(row)));
  }

  @Override
  public Map<InodeKey, Inode> getAll(List<InodeKey> keys, LockMode lock) throws StoreException {
    List<Tuple> tuples = new ArrayList<>(keys.size());
    for (InodeKey key : keys) {
      tuples.add(key(key));
    }
    List<Tuple> rows = session.getAll(view, tuples, lock, "reading " + keys.size() + " inodes");
    Map<InodeKey, Inode> found = new LinkedHashMap<>();
    for (Tuple row : rows) {
      if (row != null) {
        Inode inode = remember(inode(row));
        found.put(inode.key(), inode);
      }
    }
    return found;
  }

  @Override
  public Optional<Inode> getById(long inodeId, LockMode lock) throws StoreException {
    Tuple idKey = Tuple.create(1).set("ID", inodeId);
    for (int attempt = 0; attempt < BY_ID_ATTEMPTS; attempt++) {
      Tuple where = session.get(ids, idKey, lock == LockMode.NONE ? LockMode.NONE : LockMode.SHARED,
          "reading the key of inode " + inodeId);
      if (where == null) {
        return Optional.empty();
      }
      InodeKey key = new InodeKey(where.longValue("PART"), where.longValue("PARENT"), where.stringValue("NAME"));
      Optional<Inode> inode = get(key, lock);
      if (inode.isPresent() && inode.get().id() == inodeId) {
        return inode;
      }
      if (lock != LockMode.NONE || session.readOnly()) {
        // read under a lock, yet the key names another inode: the id row and the inode row disagree
        throw new StoreException("inode " + inodeId + " is recorded at " + key + ", which holds "
            + inode.map(i -> "inode " + i.id()).orElse("no inode"));
      }
      // an unlocked read raced with a move of the inode: read its new key
    }
    throw new StoreException("inode " + inodeId + " moved " + BY_ID_ATTEMPTS + " times while being read by id");
  }

  @Override
  public List<Inode> children(long partitionId, long parentId, String startAfter, int limit, LockMode lock)
      throws StoreException {
    List<SqlRow> rows = session.query(CHILDREN, lock, "listing directory " + parentId, partitionId, parentId,
        startAfter(startAfter), limit);
    return lockedRows(rows, lock, "listing directory " + parentId);
  }

  @Override
  public List<Inode> spreadChildren(long parentId, String startAfter, int limit, LockMode lock)
      throws StoreException {
    List<SqlRow> rows = session.query(SPREAD_CHILDREN, lock, "listing directory " + parentId, parentId,
        startAfter(startAfter), limit);
    return lockedRows(rows, lock, "listing directory " + parentId);
  }

  /** One page of a directory's children, as {@link #children} asks for it. */
  record PageRequest(long partitionId, long parentId, String startAfter, int limit) {
  }

  /** Pages of children one query reads at most: a longer list is read in several. */
  static final int PAGES_PER_QUERY = 64;

  /**
   * Unlocked pages of children of several directories, in one query (a {@code UNION ALL} of each page's scan, each
   * labelled with its position): one request and one wait for the cluster's safe time instead of one per
   * directory (design 020). Each page as {@link #children} answers it unlocked.
   */
  List<List<Inode>> unlockedChildrenPages(List<PageRequest> pages) throws StoreException {
    List<List<Inode>> answers = new ArrayList<>(pages.size());
    for (int from = 0; from < pages.size(); from += PAGES_PER_QUERY) {
      answers.addAll(unlockedChildrenQuery(pages.subList(from, Math.min(pages.size(), from + PAGES_PER_QUERY))));
    }
    return answers;
  }

  private List<List<Inode>> unlockedChildrenQuery(List<PageRequest> pages) throws StoreException {
    StringBuilder sql = new StringBuilder();
    Object[] arguments = new Object[pages.size() * 4];
    List<List<Inode>> answers = new ArrayList<>(pages.size());
    for (int i = 0; i < pages.size(); i++) {
      PageRequest page = pages.get(i);
      sql.append(i == 0 ? "" : " UNION ALL ").append("SELECT ").append(i).append(" AS PAGE_NO, P.* FROM (")
          .append(CHILDREN).append(") P");
      arguments[i * 4] = page.partitionId();
      arguments[i * 4 + 1] = page.parentId();
      arguments[i * 4 + 2] = startAfter(page.startAfter());
      arguments[i * 4 + 3] = page.limit();
      answers.add(new ArrayList<>());
    }
    List<SqlRow> rows = session.query(sql.toString(), LockMode.NONE, "listing " + pages.size() + " directories",
        arguments);
    for (SqlRow row : rows) {
      answers.get(row.intValue("PAGE_NO")).add(remember(inode(row)));
    }
    for (List<Inode> answer : answers) {
      // each page's rows in name order (UTF-8 byte order, as stored), whatever order the union gave them in
      answer.sort((a, b) -> java.util.Arrays.compareUnsigned(bytes(a.name()), bytes(b.name())));
    }
    return answers;
  }

  /** How many children of a directory come after {@code startAfter} (empty or null: all). */
  long countChildren(long partitionId, long parentId, String startAfter) throws StoreException {
    return count("SELECT /*+ FORCE_INDEX(" + IgniteSchema.INODES + "_PK) */ COUNT(*) FROM " + IgniteSchema.INODES
        + " WHERE PART = ? AND PARENT = ? AND NAME > ?", parentId, partitionId, parentId,
        startAfter(startAfter));
  }

  /** {@link #countChildren} of a directory whose children are spread over partitions. */
  long countSpreadChildren(long parentId, String startAfter) throws StoreException {
    return count("SELECT /*+ FORCE_INDEX(" + IgniteSchema.INODES + "_BY_PARENT) */ COUNT(*) FROM "
        + IgniteSchema.INODES + " WHERE PARENT = ? AND NAME > ? AND PART <> PARENT", parentId, parentId,
        startAfter(startAfter));
  }

  private long count(String sql, long parentId, Object... arguments) throws StoreException {
    List<SqlRow> rows = session.query(sql, LockMode.NONE, "counting the children of directory " + parentId,
        arguments);
    return rows.get(0).longValue(0);
  }

  /** Scanned rows (read under shared range locks) as inodes, their locks upgraded when asked. */
  private List<Inode> lockedRows(List<SqlRow> rows, LockMode lock, String what) throws StoreException {
    List<Inode> inodes = new ArrayList<>(rows.size());
    List<Tuple> tuples = new ArrayList<>(rows.size());
    for (SqlRow row : rows) {
      Inode inode = remember(inode(row));
      inodes.add(inode);
      tuples.add(row(inode));
    }
    if (session.effective(lock) == LockMode.EXCLUSIVE) {
      session.lockExclusively(view, tuples, what);
    }
    return inodes;
  }

  @Override
  public void insert(Inode inode) {
    writes.insert(inode.key(), inode);
  }

  @Override
  public void update(Inode inode) {
    writes.update(inode.key(), inode);
  }

  @Override
  public void delete(InodeKey key) {
    writes.delete(key);
  }

  @Override
  public void flush() throws StoreException {
    if (writes.isEmpty()) {
      return;
    }
    List<InodeKey> deletes = writes.deletes();
    List<Inode> inserts = writes.inserts();
    List<Inode> updates = writes.updates();
    writes.clear();
    try {
      if (!deletes.isEmpty()) {
        List<Tuple> idRows = new ArrayList<>();
        List<Tuple> keys = new ArrayList<>();
        for (InodeKey key : deletes) {
          keys.add(key(key));
        }
        // a delete of a row this transaction did not read (a blind delete): its id comes from the row itself
        getAll(deletes.stream().filter(key -> !knownIds.containsKey(key)).toList(), LockMode.SHARED);
        for (InodeKey key : deletes) {
          Long id = knownIds.get(key);
          if (id != null) {
            idRows.add(Tuple.create(1).set("ID", id));
          }
        }
        view.deleteAll(session.transaction(), keys);
        ids.deleteAll(session.transaction(), idRows);
        session.count(2);
      }
      if (!inserts.isEmpty()) {
        List<Tuple> rows = new ArrayList<>();
        List<Tuple> idRows = new ArrayList<>();
        for (Inode inode : inserts) {
          rows.add(row(inode));
          idRows.add(Tuple.create(4).set("ID", inode.id()).set("PART", inode.partitionId())
              .set("PARENT", inode.parentId()).set("NAME", inode.name()));
          remember(inode);
        }
        List<Tuple> refused = view.insertAll(session.transaction(), rows);
        if (!refused.isEmpty()) {
          throw new StoreException("insert of inode " + inode(refused.get(0)).key() + ": the key exists");
        }
        ids.upsertAll(session.transaction(), idRows);
        session.count(2);
      }
      if (!updates.isEmpty()) {
        List<Tuple> rows = new ArrayList<>();
        for (Inode inode : updates) {
          rows.add(row(inode));
        }
        view.upsertAll(session.transaction(), rows);
        session.count(1);
      }
    } catch (RuntimeException e) {
      throw session.translate("writing inodes", e, false);
    }
  }

  @Override
  public boolean isEmpty() {
    return writes.isEmpty();
  }

  @Override
  public void clear() {
    writes.clear();
  }
}

package io.canopy.it;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.QueryResult;
import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.fs.InodePartitioning;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Structural invariants of a quiescent namespace, read straight from the metadata tables with
 * {@link StoreQueries#query}: run them when no client operation is in flight. Each violation is one line of the
 * returned list (empty when the namespace is sound).
 */
final class NamespaceInvariants {
  private static final int MAX_ROWS = 1_000_000;

  /** One inodes row. */
  record Row(long id, long partitionId, long parentId, String name, boolean directory, long size,
      boolean underConstruction, String clientName, long childrenCount, boolean spreadsChildren) {
  }

  private NamespaceInvariants() {
  }

  private static List<List<String>> query(MetadataStore store, String sql) throws IOException {
    QueryResult result = StoreQueries.query(store, sql, MAX_ROWS);
    if (result.truncated()) {
      throw new IllegalStateException("more than " + MAX_ROWS + " rows for " + sql);
    }
    return result.rows();
  }

  static List<Row> inodes(MetadataStore store) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (List<String> r : query(store, "SELECT id, partition_id, parent_id, name, CASE WHEN is_dir THEN 1 ELSE 0 END,"
        + " size, CASE WHEN under_construction THEN 1 ELSE 0 END, client_name, children_count,"
        + " CASE WHEN spread_children THEN 1 ELSE 0 END FROM inodes")) {
      rows.add(new Row(Long.parseLong(r.get(0)), Long.parseLong(r.get(1)), Long.parseLong(r.get(2)), r.get(3),
          "1".equals(r.get(4)), Long.parseLong(r.get(5)), "1".equals(r.get(6)), r.get(7), Long.parseLong(r.get(8)),
          "1".equals(r.get(9))));
    }
    return rows;
  }

  /** Every violated invariant, described with the rows involved. */
  static List<String> violations(MetadataStore store) throws IOException {
    List<String> problems = new ArrayList<>();
    List<Row> rows = inodes(store);
    Map<Long, Row> byId = new HashMap<>();
    Set<String> names = new HashSet<>();
    for (Row row : rows) {
      if (byId.put(row.id(), row) != null) {
        problems.add("inode id " + row.id() + " appears twice");
      }
      if (!names.add(row.parentId() + "/" + row.name())) {
        problems.add("name '" + row.name() + "' appears twice in directory " + row.parentId());
      }
    }
    for (Row row : rows) {
      Row parent = byId.get(row.parentId());
      boolean spread = parent != null && parent.spreadsChildren();
      long expected = row.id() == InodePartitioning.ROOT_ID ? InodePartitioning.ROOT_KEY.partitionId()
          : InodePartitioning.partitionOf(row.parentId(), spread, row.name());
      if (row.partitionId() != expected) {
        problems.add("inode " + row + " is in partition " + row.partitionId() + ", expected " + expected);
      }
    }
    Row root = byId.get(InodePartitioning.ROOT_ID);
    if (root == null || root.parentId() != InodePartitioning.ROOT_PARENT_ID || !root.name().isEmpty()
        || !root.directory()) {
      problems.add("root inode missing or malformed: " + root);
      return problems;
    }
    Map<Long, List<Row>> children = new HashMap<>();
    for (Row row : rows) {
      if (row.id() == InodePartitioning.ROOT_ID) {
        continue;
      }
      Row parent = byId.get(row.parentId());
      if (parent == null) {
        problems.add("orphan: the parent " + row.parentId() + " of " + row + " does not exist");
      } else if (!parent.directory()) {
        problems.add("inode " + row + " has a file as its parent: " + parent);
      }
      if (row.name().isEmpty() || row.name().contains("/")) {
        problems.add("bad name in " + row);
      }
      children.computeIfAbsent(row.parentId(), p -> new ArrayList<>()).add(row);
    }
    // reachability from the root; whatever exists but is unreachable hangs off a cycle or an orphan
    Set<Long> reached = new HashSet<>();
    Deque<Long> queue = new ArrayDeque<>();
    queue.add(root.id());
    reached.add(root.id());
    while (!queue.isEmpty()) {
      for (Row child : children.getOrDefault(queue.poll(), List.of())) {
        if (reached.add(child.id())) {
          queue.add(child.id());
        }
      }
    }
    for (Row row : rows) {
      if (!reached.contains(row.id())) {
        problems.add("unreachable from the root (orphan or cycle): " + row + cycleDescription(row, byId));
      }
    }
    for (Row row : rows) {
      long actual = children.getOrDefault(row.id(), List.of()).size();
      if (row.directory() && row.childrenCount() != actual) {
        problems.add("directory " + row + " has children_count " + row.childrenCount() + " but " + actual
            + " children");
      }
      if (!row.directory() && actual != 0) {
        problems.add("file " + row + " has " + actual + " children");
      }
      if (row.directory() && (row.underConstruction() || row.size() != 0)) {
        problems.add("directory with file state: " + row);
      }
    }

    // blocks: of existing files only, consistent with block_lookup; closed files are complete and sized
    Map<Long, Long> blockBytes = new HashMap<>();
    Map<Long, Long> blockOwner = new HashMap<>();
    for (List<String> r : query(store, "SELECT inode_id, block_id, num_bytes, state FROM blocks")) {
      long inode = Long.parseLong(r.get(0));
      long block = Long.parseLong(r.get(1));
      blockOwner.put(block, inode);
      blockBytes.merge(inode, Long.parseLong(r.get(2)), Long::sum);
      Row file = byId.get(inode);
      if (file == null || file.directory()) {
        problems.add("block " + block + " belongs to missing or non-file inode " + inode + ": " + file);
      } else if (!file.underConstruction() && Integer.parseInt(r.get(3)) != BlockState.COMPLETE.code()) {
        problems.add("closed file " + file + " has block " + block + " in state "
            + BlockState.fromCode(Integer.parseInt(r.get(3))));
      }
    }
    Map<Long, Long> lookup = new HashMap<>();
    for (List<String> r : query(store, "SELECT block_id, inode_id FROM block_lookup")) {
      lookup.put(Long.parseLong(r.get(0)), Long.parseLong(r.get(1)));
    }
    problems.addAll(smallFileViolations(store, blockOwner));
    Map<Long, Long> datanodeBlocks = new HashMap<>(blockOwner);
    datanodeBlocks.keySet().removeIf(block -> block < 0); // database-resident blocks need no lookup row
    if (!lookup.equals(datanodeBlocks)) {
      Set<Long> differing = new HashSet<>(lookup.keySet());
      differing.addAll(datanodeBlocks.keySet());
      differing.removeIf(block -> Objects.equals(lookup.get(block), datanodeBlocks.get(block)));
      problems.add("block_lookup disagrees with blocks for blocks " + differing);
    }
    for (Row row : rows) {
      if (!row.directory() && !row.underConstruction() && row.size() != blockBytes.getOrDefault(row.id(), 0L)) {
        problems.add("closed file " + row + " has size " + row.size() + " but its blocks hold "
            + blockBytes.getOrDefault(row.id(), 0L) + " bytes");
      }
    }
    for (String table : List.of("replicas", "uc_replicas")) {
      for (List<String> r : query(store, "SELECT inode_id, block_id, storage_id FROM " + table)) {
        long inode = Long.parseLong(r.get(0));
        long block = Long.parseLong(r.get(1));
        if (!Objects.equals(blockOwner.get(block), inode)) {
          problems.add(table + " row " + r + " names a block that is not a block of inode " + inode);
        }
        Row file = byId.get(inode);
        if (table.equals("uc_replicas") && file != null && !file.underConstruction()) {
          problems.add("closed file " + file + " keeps an under-construction replica " + r);
        }
      }
    }

    // leases: a lease path per open file and only for open files, each holder with a lease (a lease row may outlive
    // its holder's last open file: it stays until lease housekeeping expires it)
    Set<String> holders = new HashSet<>();
    for (List<String> r : query(store, "SELECT holder FROM leases")) {
      holders.add(r.get(0));
    }
    Set<Long> leased = new HashSet<>();
    for (List<String> r : query(store, "SELECT holder, inode_id FROM lease_paths")) {
      String holder = r.get(0);
      long inode = Long.parseLong(r.get(1));
      leased.add(inode);
      Row file = byId.get(inode);
      if (file == null) {
        problems.add("lease path of " + holder + " points to missing inode " + inode);
      } else if (file.directory() || !file.underConstruction() || !holder.equals(file.clientName())) {
        problems.add("lease path of " + holder + " points to an inode that is not a file it writes: " + file);
      }
      if (!holders.contains(holder)) {
        problems.add("lease path of " + holder + " on inode " + inode + " without a lease");
      }
    }
    for (Row row : rows) {
      if (!row.directory() && row.underConstruction() && !leased.contains(row.id())) {
        problems.add("open file without a lease path: " + row);
      }
    }
    problems.addAll(quotaViolations(store));
    problems.addAll(subtreeViolations(store));
    return problems;
  }

  /**
   * Subtree operations (design 017): a directory flagged by a namenode has that namenode's row in
   * {@code subtree_operations}, and each row's directory is flagged by its namenode; attributes and ACL entries
   * belong to existing inodes.
   */
  static List<String> subtreeViolations(MetadataStore store) throws IOException {
    List<String> problems = new ArrayList<>();
    for (List<String> r : query(store, "SELECT i.id, i.subtree_lock_owner, o.root_id, o.namenode_id, "
        + "CASE WHEN i.is_dir THEN 1 ELSE 0 END "
        + "FROM inodes i FULL JOIN subtree_operations o ON o.root_id = i.id "
        + "WHERE i.subtree_lock_owner <> 0 OR o.root_id IS NOT NULL")) {
      if (r.get(0) == null || r.get(2) == null || !r.get(1).equals(r.get(3)) || !"1".equals(r.get(4))) {
        problems.add("subtree flag and subtree_operations row disagree: inode " + r.get(0) + " flagged by "
            + r.get(1) + ", row of " + r.get(2) + " for namenode " + r.get(3));
      }
    }
    for (String table : new String[] {"xattrs", "acl_entries"}) {
      for (List<String> r : query(store, "SELECT DISTINCT t.inode_id FROM " + table + " t "
          + "WHERE NOT EXISTS (SELECT 1 FROM inodes i WHERE i.id = t.inode_id)")) {
        problems.add(table + " rows of missing inode " + r.get(0));
      }
    }
    return problems;
  }

  /**
   * Small files (design 016): a database-resident block (negative id) is its file's first block, named after it
   * (-inode id), COMPLETE, without replicas, and its bytes are stored in exactly one tier (at most 1 KB inline, larger
   * ones in the data tier) with its length; stored bytes belong to a file with such a block.
   */
  static List<String> smallFileViolations(MetadataStore store, Map<Long, Long> blockOwner) throws IOException {
    List<String> problems = new ArrayList<>();
    Map<Long, Long> lengths = new HashMap<>();
    for (List<String> r : query(store, "SELECT inode_id, block_id, block_index, num_bytes, state FROM blocks "
        + "WHERE block_id < 0")) {
      long inode = Long.parseLong(r.get(0));
      if (Long.parseLong(r.get(1)) != -inode || Integer.parseInt(r.get(2)) != 0
          || Integer.parseInt(r.get(4)) != BlockState.COMPLETE.code()) {
        problems.add("database-resident block row " + r + " is not its file's complete first block -inode id");
      }
      lengths.put(inode, Long.parseLong(r.get(3)));
    }
    for (List<String> r : query(store, "SELECT inode_id, block_id FROM replicas WHERE block_id < 0 UNION ALL "
        + "SELECT inode_id, block_id FROM uc_replicas WHERE block_id < 0")) {
      problems.add("database-resident block has a replica row: " + r);
    }
    Map<Long, Long> stored = new HashMap<>();
    // Ignite 3 keeps small files' bytes in one table (design 020): its rows are classed by their length, so the tier
    // checks below hold there by construction; what is checked is that the stored lengths match the blocks
    String storedSmallFiles = StoreQueries.onIgnite(store)
        ? "SELECT inode_id, octet_length(data), CASE WHEN octet_length(data) <= 1024 THEN 'inline' ELSE 'data' END "
            + "FROM canopy_small_files"
        : "SELECT inode_id, length(data), 'inline' FROM small_file_inline UNION ALL "
            + "SELECT inode_id, length(data), 'data' FROM small_file_data";
    for (List<String> r : query(store, storedSmallFiles)) {
      long inode = Long.parseLong(r.get(0));
      long bytes = Long.parseLong(r.get(1));
      if (stored.put(inode, bytes) != null) {
        problems.add("small file of inode " + inode + " is stored in both tiers");
      }
      if (r.get(2).equals("inline") != bytes <= 1024) {
        problems.add("small file of inode " + inode + " (" + bytes + " bytes) is in the wrong tier " + r.get(2));
      }
    }
    if (!stored.equals(lengths)) {
      problems.add("stored small files " + stored + " disagree with database-resident blocks " + lengths);
    }
    blockOwner.forEach((block, inode) -> {
      if (block < 0 && block != -inode) {
        problems.add("database-resident block " + block + " belongs to inode " + inode);
      }
    });
    return problems;
  }

  /**
   * Quotas: a directory is flagged exactly when it has a quota row, and every row's stored usage equals a recount of
   * its subtree (one per inode, the directory included; storage space is bytes times replication, a block being
   * written or recovered counting as a whole preferred block).
   */
  static List<String> quotaViolations(MetadataStore store) throws IOException {
    List<String> problems = new ArrayList<>();
    Map<Long, List<Long>> children = new HashMap<>();
    Map<Long, Long> space = new HashMap<>();
    Map<Long, Long> preferred = new HashMap<>();
    Map<Long, Long> replication = new HashMap<>();
    Set<Long> flagged = new HashSet<>();
    Set<Long> open = new HashSet<>();
    for (List<String> r : query(store, "SELECT id, parent_id, CASE WHEN is_dir THEN 1 ELSE 0 END,"
        + " CASE WHEN under_construction THEN 1 ELSE 0 END, size, replication, preferred_block_size,"
        + " CASE WHEN has_quota THEN 1 ELSE 0 END FROM inodes")) {
      long id = Long.parseLong(r.get(0));
      if (id != InodePartitioning.ROOT_ID) {
        children.computeIfAbsent(Long.parseLong(r.get(1)), p -> new ArrayList<>()).add(id);
      }
      boolean directory = "1".equals(r.get(2));
      long factor = Long.parseLong(r.get(5));
      replication.put(id, factor);
      preferred.put(id, Long.parseLong(r.get(6)));
      if ("1".equals(r.get(7))) {
        flagged.add(id);
      }
      if (!directory && "1".equals(r.get(3))) {
        open.add(id);
        space.put(id, 0L);
      } else {
        space.put(id, directory ? 0 : Long.parseLong(r.get(4)) * factor);
      }
    }
    for (List<String> r : query(store, "SELECT inode_id, num_bytes, state FROM blocks")) {
      long inode = Long.parseLong(r.get(0));
      if (open.contains(inode)) {
        BlockState state = BlockState.fromCode(Integer.parseInt(r.get(2)));
        long bytes = state == BlockState.UNDER_CONSTRUCTION || state == BlockState.UNDER_RECOVERY
            ? preferred.get(inode) : Long.parseLong(r.get(1));
        space.merge(inode, bytes * replication.get(inode), Long::sum);
      }
    }
    Set<Long> withRows = new HashSet<>();
    for (List<String> r : query(store, "SELECT inode_id, namespace_used, storage_space_used FROM directory_quotas")) {
      long id = Long.parseLong(r.get(0));
      withRows.add(id);
      if (!space.containsKey(id)) {
        problems.add("quota row of missing inode " + id);
        continue;
      }
      long namespace = 0;
      long storage = 0;
      Deque<Long> queue = new ArrayDeque<>(List.of(id));
      Set<Long> seen = new HashSet<>();
      while (!queue.isEmpty()) {
        long next = queue.poll();
        if (!seen.add(next)) {
          continue; // a cycle: reported by the structural checks
        }
        namespace++;
        storage += space.getOrDefault(next, 0L);
        queue.addAll(children.getOrDefault(next, List.of()));
      }
      if (namespace != Long.parseLong(r.get(1)) || storage != Long.parseLong(r.get(2))) {
        problems.add("quota usage of directory " + id + " is stored as namespace " + r.get(1) + ", storage space "
            + r.get(2) + " but a recount finds " + namespace + " and " + storage);
      }
    }
    for (long id : flagged) {
      if (!withRows.contains(id)) {
        problems.add("directory " + id + " is flagged with a quota but has no quota row");
      }
    }
    for (long id : withRows) {
      if (space.containsKey(id) && !flagged.contains(id)) {
        problems.add("directory " + id + " has a quota row but is not flagged");
      }
    }
    return problems;
  }

  private static String cycleDescription(Row row, Map<Long, Row> byId) {
    Set<Long> seen = new HashSet<>();
    StringBuilder chain = new StringBuilder(" ancestry:");
    Row current = row;
    while (current != null && seen.add(current.id()) && current.id() != InodePartitioning.ROOT_ID) {
      chain.append(' ').append(current.id()).append('(').append(current.name()).append(')');
      current = byId.get(current.parentId());
    }
    if (current != null && current.id() != InodePartitioning.ROOT_ID) {
      chain.append(" -> cycle at ").append(current.id());
    } else if (current == null) {
      chain.append(" -> missing parent");
    }
    return chain.toString();
  }
}

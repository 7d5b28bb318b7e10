package io.canopy.namenode.check;

import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.fs.InodePartitioning;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The invariants of the metadata tables, checked over one consistent snapshot ({@link AdminQueries#inSnapshot}), so a
 * running cluster can be checked: every inode reachable from the root exactly once (no orphan, no cycle), names
 * unique and well formed in their directory, partition keys as {@link InodePartitioning} computes them, children
 * counts equal to the children, blocks only of files and consistent with {@code block_lookup}, closed files complete
 * and as long as their blocks, replicas only of existing blocks, small files stored once with their block's length,
 * leases and lease paths exactly for the open files, quota flags and rows together with their usage equal to a
 * recount, subtree flags and {@code subtree_operations} rows together, attributes and ACL entries of existing inodes,
 * and every id counter ahead of every id in use.
 *
 * <p>What the namenodes repair on their own is a warning, not a problem: a subtree flag or operation of a namenode no
 * longer in the group (cleared by the next operation that meets it), a lease not renewed for the hard limit that still
 * holds files (the leader recovers them).
 *
 * <p>Memory: every inode's row (about 200 bytes) and every block's owner are held while the check runs; everything
 * else is streamed.
 */
public final class MetadataInvariants {
  /** Problems and warnings listed, each; more are counted. */
  public static final int MAX_LISTED = 1000;
  /** Ancestors followed, at most, to name an inode's path (a longer chain is shown cut). */
  private static final int MAX_PATH_DEPTH = 1000;
  /** Rows read between two progress reports of a long table. */
  private static final long PROGRESS_ROWS = 100_000;

  /** One inodes row. */
  record Row(long id, long partitionId, long parentId, String name, boolean directory, boolean symlink, long size,
      boolean underConstruction, String clientName, long childrenCount, boolean spreadsChildren, boolean hasQuota,
      long replication, long preferredBlockSize, long subtreeOwner) {
  }

  private final AdminQueries admin;
  private final long nowMs;
  private final long leaseHardLimitMs;
  private final Consumer<String> progress;
  private final List<String> problems = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private long unlistedProblems;
  private long unlistedWarnings;

  private final Map<Long, Row> byId = new HashMap<>();
  private final Map<Long, List<Long>> children = new HashMap<>();
  /** Block id to the inode holding it. */
  private final Map<Long, Long> blockOwner = new HashMap<>();
  private long maxGenerationStamp;
  private long replicaCount;
  private long leaseCount;
  private long quotaDirectories;
  private long subtreeOperations;
  private long smallFiles;

  private MetadataInvariants(AdminQueries admin, long nowMs, long leaseHardLimitMs, Consumer<String> progress) {
    this.admin = admin;
    this.nowMs = nowMs;
    this.leaseHardLimitMs = leaseHardLimitMs;
    this.progress = progress;
  }

  /**
   * Checks the metadata of {@code store} as of one snapshot; {@code nowMs} and {@code leaseHardLimitMs} judge the
   * leases' age. Fails when the store's engine runs no administrative queries.
   */
  public static MetadataCheckReport check(MetadataStore store, long nowMs, long leaseHardLimitMs)
      throws StoreException {
    return check(store, nowMs, leaseHardLimitMs, step -> { });
  }

  /**
   * As {@link #check(MetadataStore, long, long)}, telling {@code progress} what it is doing (each table as it starts,
   * and every {@value #PROGRESS_ROWS} rows of a long one).
   */
  public static MetadataCheckReport check(MetadataStore store, long nowMs, long leaseHardLimitMs,
      Consumer<String> progress) throws StoreException {
    AdminQueries admin = store.capability(AdminQueries.class).orElseThrow(() -> new StoreException(
        "the metadata store (" + store.describe() + ") runs no administrative queries: checking its metadata needs "
            + "an engine that does, such as postgres"));
    MetadataInvariants check = new MetadataInvariants(admin, nowMs, leaseHardLimitMs, progress);
    return admin.inSnapshot(check::run);
  }

  private MetadataCheckReport run(AdminQueries.Snapshot snapshot) throws StoreException {
    readInodes(snapshot);
    checkTree();
    Map<Long, Long> blockBytes = new HashMap<>();
    Map<Long, Long> openSpace = new HashMap<>();
    checkBlocks(snapshot, blockBytes, openSpace);
    checkSmallFiles(snapshot);
    checkReplicas(snapshot);
    checkLeases(snapshot);
    checkQuotas(snapshot, openSpace);
    checkSubtreeOperations(snapshot);
    checkIdCounters(snapshot);
    long directories = 0;
    long files = 0;
    long symlinks = 0;
    long open = 0;
    for (Row row : byId.values()) {
      if (row.directory()) {
        directories++;
      } else if (row.symlink()) {
        symlinks++;
      } else {
        files++;
        if (row.underConstruction()) {
          open++;
        } else if (row.size() != blockBytes.getOrDefault(row.id(), 0L)) {
          problem("closed file " + describe(row) + " has size " + row.size() + " but its blocks hold "
              + blockBytes.getOrDefault(row.id(), 0L) + " bytes");
        }
      }
    }
    long blocks = blockOwner.keySet().stream().filter(block -> block > 0).count();
    return new MetadataCheckReport(new MetadataCheckReport.Counts(directories, files, symlinks, smallFiles, open,
        blocks, replicaCount, leaseCount, quotaDirectories, subtreeOperations), problems, unlistedProblems, warnings,
        unlistedWarnings);
  }

  private void problem(String text) {
    if (problems.size() < MAX_LISTED) {
      problems.add(text);
    } else {
      unlistedProblems++;
    }
  }

  private void warning(String text) {
    if (warnings.size() < MAX_LISTED) {
      warnings.add(text);
    } else {
      unlistedWarnings++;
    }
  }

  private void forEachRow(AdminQueries.Snapshot snapshot, String query, AdminQueries.RowConsumer rows)
      throws StoreException {
    String table = query.substring(query.lastIndexOf(" FROM ") + 6).split(" ")[0];
    progress.accept("reading " + table);
    long[] read = {0};
    snapshot.forEachRow(admin.withSchemaNames(query), row -> {
      rows.accept(row);
      if (++read[0] % PROGRESS_ROWS == 0) {
        progress.accept("reading " + table + ": " + String.format("%,d", read[0]) + " rows");
      }
    });
  }

  private static boolean flag(String value) {
    return "1".equals(value);
  }

  private void readInodes(AdminQueries.Snapshot snapshot) throws StoreException {
    Set<String> names = new HashSet<>();
    forEachRow(snapshot, "SELECT id, partition_id, parent_id, name, CASE WHEN is_dir THEN 1 ELSE 0 END,"
        + " CASE WHEN symlink_target IS NULL THEN 0 ELSE 1 END, size, CASE WHEN under_construction THEN 1 ELSE 0 END,"
        + " client_name, children_count, CASE WHEN spread_children THEN 1 ELSE 0 END,"
        + " CASE WHEN has_quota THEN 1 ELSE 0 END, replication, preferred_block_size, subtree_lock_owner FROM inodes",
        r -> {
          Row row = new Row(Long.parseLong(r.get(0)), Long.parseLong(r.get(1)), Long.parseLong(r.get(2)), r.get(3),
              flag(r.get(4)), flag(r.get(5)), Long.parseLong(r.get(6)), flag(r.get(7)), r.get(8),
              Long.parseLong(r.get(9)), flag(r.get(10)), flag(r.get(11)), Long.parseLong(r.get(12)),
              Long.parseLong(r.get(13)), Long.parseLong(r.get(14)));
          if (byId.put(row.id(), row) != null) {
            problem("inode id " + row.id() + " appears twice");
          }
          if (!names.add(row.parentId() + "/" + row.name())) {
            problem("name '" + row.name() + "' appears twice in directory " + row.parentId());
          }
        });
  }

  /** The inode's path as far as its ancestors exist, with its id. */
  private String describe(Row row) {
    return pathOf(row.id()) + " (inode " + row.id() + ")";
  }

  private String pathOf(long id) {
    Deque<String> names = new ArrayDeque<>();
    Set<Long> seen = new HashSet<>();
    long current = id;
    while (current != InodePartitioning.ROOT_ID) {
      Row row = byId.get(current);
      if (row == null || !seen.add(current) || names.size() >= MAX_PATH_DEPTH) {
        names.addFirst(row == null ? "<missing " + current + ">" : "<cycle at " + current + ">");
        break;
      }
      names.addFirst(row.name());
      current = row.parentId();
    }
    return "/" + String.join("/", names);
  }

  private void checkTree() {
    for (Row row : byId.values()) {
      Row parent = byId.get(row.parentId());
      boolean spread = parent != null && parent.spreadsChildren();
      long expected = row.id() == InodePartitioning.ROOT_ID ? InodePartitioning.ROOT_KEY.partitionId()
          : InodePartitioning.partitionOf(row.parentId(), spread, row.name());
      if (row.partitionId() != expected) {
        problem("inode " + describe(row) + " is in partition " + row.partitionId() + ", expected " + expected);
      }
    }
    Row root = byId.get(InodePartitioning.ROOT_ID);
    if (root == null || root.parentId() != InodePartitioning.ROOT_PARENT_ID || !root.name().isEmpty()
        || !root.directory()) {
      problem("root inode missing or malformed: " + root);
      return;
    }
    for (Row row : byId.values()) {
      if (row.id() == InodePartitioning.ROOT_ID) {
        continue;
      }
      Row parent = byId.get(row.parentId());
      if (parent == null) {
        problem("orphan: the parent " + row.parentId() + " of inode " + row.id() + " ('" + row.name()
            + "') does not exist");
      } else if (!parent.directory()) {
        problem("inode " + describe(row) + " has a file or symlink as its parent");
      }
      if (row.name().isEmpty() || row.name().contains("/")) {
        problem("bad name '" + row.name() + "' of inode " + row.id());
      }
      children.computeIfAbsent(row.parentId(), p -> new ArrayList<>()).add(row.id());
    }
    Set<Long> reached = new HashSet<>();
    Deque<Long> queue = new ArrayDeque<>();
    queue.add(root.id());
    reached.add(root.id());
    while (!queue.isEmpty()) {
      for (long child : children.getOrDefault(queue.poll(), List.of())) {
        if (reached.add(child)) {
          queue.add(child);
        }
      }
    }
    for (Row row : byId.values()) {
      if (!reached.contains(row.id()) && byId.containsKey(row.parentId())) {
        problem("unreachable from the root (in a cycle, or below an orphan): " + describe(row));
      }
      long actual = children.getOrDefault(row.id(), List.of()).size();
      if (row.directory() && row.childrenCount() != actual) {
        problem("directory " + describe(row) + " has children_count " + row.childrenCount() + " but " + actual
            + " children");
      }
      if (!row.directory() && actual != 0) {
        problem("file " + describe(row) + " has " + actual + " children");
      }
      if (row.directory() && (row.underConstruction() || row.size() != 0)) {
        problem("directory " + describe(row) + " has a file's state (open or sized)");
      }
    }
  }

  private void checkBlocks(AdminQueries.Snapshot snapshot, Map<Long, Long> blockBytes, Map<Long, Long> openSpace)
      throws StoreException {
    forEachRow(snapshot, "SELECT inode_id, block_id, block_index, num_bytes, generation_stamp, state, recovery_id"
        + " FROM blocks", r -> {
          long inode = Long.parseLong(r.get(0));
          long block = Long.parseLong(r.get(1));
          long bytes = Long.parseLong(r.get(3));
          BlockState state = BlockState.fromCode(Integer.parseInt(r.get(5)));
          maxGenerationStamp = Math.max(maxGenerationStamp, Math.max(Long.parseLong(r.get(4)),
              Long.parseLong(r.get(6))));
          if (blockOwner.put(block, inode) != null) {
            problem("block " + block + " belongs to more than one file");
          }
          blockBytes.merge(inode, bytes, Long::sum);
          Row file = byId.get(inode);
          if (file == null || file.directory() || file.symlink()) {
            problem("block " + block + " belongs to " + (file == null ? "missing inode " + inode
                : "a directory or symlink " + describe(file)));
            return;
          }
          if (!file.underConstruction() && state != BlockState.COMPLETE) {
            problem("closed file " + describe(file) + " has block " + block + " in state " + state);
          }
          if (file.underConstruction()) {
            boolean building = state == BlockState.UNDER_CONSTRUCTION || state == BlockState.UNDER_RECOVERY;
            openSpace.merge(inode, (building ? file.preferredBlockSize() : bytes) * file.replication(), Long::sum);
          }
          if (block < 0 && (block != -inode || Integer.parseInt(r.get(2)) != 0 || state != BlockState.COMPLETE)) {
            problem("database-resident block " + block + " of " + describe(file)
                + " is not its file's complete first block named -inode id");
          }
        });
    Map<Long, Long> lookup = new HashMap<>();
    forEachRow(snapshot, "SELECT block_id, inode_id FROM block_lookup", r -> {
      long block = Long.parseLong(r.get(0));
      long inode = Long.parseLong(r.get(1));
      lookup.put(block, inode);
      Long owner = blockOwner.get(block);
      if (owner == null || owner != inode) {
        problem("block_lookup says block " + block + " is of inode " + inode + ", but "
            + (owner == null ? "no file holds it" : "inode " + owner + " holds it"));
      }
    });
    blockOwner.forEach((block, inode) -> {
      if (block > 0 && !lookup.containsKey(block)) {
        problem("block " + block + " of inode " + inode + " has no block_lookup row");
      }
    });
  }

  private void checkSmallFiles(AdminQueries.Snapshot snapshot) throws StoreException {
    Map<Long, Long> stored = new HashMap<>();
    forEachRow(snapshot, "SELECT inode_id, tier, bytes FROM small_files", r -> {
      long inode = Long.parseLong(r.get(0));
      long bytes = Long.parseLong(r.get(2));
      smallFiles++;
      if (stored.put(inode, bytes) != null) {
        problem("the small file of inode " + inode + " is stored in both tiers");
      }
      if (r.get(1).equals("inline") != bytes <= 1024) {
        problem("the small file of inode " + inode + " (" + bytes + " bytes) is in the wrong tier " + r.get(1));
      }
    });
    Map<Long, Long> lengths = new HashMap<>();
    forEachRow(snapshot, "SELECT inode_id, num_bytes FROM blocks WHERE block_id < 0",
        r -> lengths.put(Long.parseLong(r.get(0)), Long.parseLong(r.get(1))));
    Set<Long> inodes = new HashSet<>(stored.keySet());
    inodes.addAll(lengths.keySet());
    for (long inode : inodes) {
      Long bytes = stored.get(inode);
      Long length = lengths.get(inode);
      if (bytes == null || !bytes.equals(length)) {
        Row file = byId.get(inode);
        problem("small file " + (file == null ? "of missing inode " + inode : describe(file)) + ": "
            + (bytes == null ? "no bytes stored" : bytes + " bytes stored") + " for "
            + (length == null ? "no database-resident block" : "a block of " + length + " bytes"));
      }
    }
  }

  private void checkReplicas(AdminQueries.Snapshot snapshot) throws StoreException {
    for (String table : List.of("replicas", "uc_replicas")) {
      boolean underConstruction = table.equals("uc_replicas");
      String stamp = underConstruction ? "generation_stamp" : "0";
      forEachRow(snapshot, "SELECT inode_id, block_id, storage_id, " + stamp + " FROM " + table, r -> {
        long inode = Long.parseLong(r.get(0));
        long block = Long.parseLong(r.get(1));
        replicaCount++;
        maxGenerationStamp = Math.max(maxGenerationStamp, Long.parseLong(r.get(3)));
        Long owner = blockOwner.get(block);
        if (owner == null || owner != inode) {
          problem(table + " row (inode " + inode + ", block " + block + ", storage " + r.get(2) + ") names "
              + (owner == null ? "a block no file holds" : "a block of inode " + owner));
        } else if (block < 0) {
          problem("database-resident block " + block + " has a " + table + " row on storage " + r.get(2));
        }
        Row file = byId.get(inode);
        if (underConstruction && file != null && !file.underConstruction()) {
          problem("closed file " + describe(file) + " keeps an under-construction replica of block " + block);
        }
      });
    }
  }

  /**
   * A lease path per open file and only for open files, each holder with a lease; a lease row may outlive its last
   * file (the leader's lease monitor expires it). A lease not renewed for the hard limit that still holds files is a
   * warning: the leader recovers its files.
   */
  private void checkLeases(AdminQueries.Snapshot snapshot) throws StoreException {
    Map<String, Long> renewed = new HashMap<>();
    forEachRow(snapshot, "SELECT holder, last_renewed_ms FROM leases", r -> {
      leaseCount++;
      renewed.put(r.get(0), Long.parseLong(r.get(1)));
    });
    Set<Long> leased = new HashSet<>();
    Map<String, Integer> held = new HashMap<>();
    forEachRow(snapshot, "SELECT holder, inode_id FROM lease_paths", r -> {
      String holder = r.get(0);
      long inode = Long.parseLong(r.get(1));
      leased.add(inode);
      held.merge(holder, 1, Integer::sum);
      Row file = byId.get(inode);
      if (file == null) {
        problem("a lease path of " + holder + " names missing inode " + inode);
      } else if (file.directory() || !file.underConstruction() || !holder.equals(file.clientName())) {
        problem("a lease path of " + holder + " names " + describe(file) + ", which is not a file it writes");
      }
      if (!renewed.containsKey(holder)) {
        problem("a lease path of " + holder + " on inode " + inode + " has no lease");
      }
    });
    for (Row row : byId.values()) {
      if (!row.directory() && row.underConstruction() && !leased.contains(row.id())) {
        problem("open file " + describe(row) + " has no lease path");
      }
    }
    held.forEach((holder, files) -> {
      Long at = renewed.get(holder);
      if (at != null && nowMs - at > leaseHardLimitMs) {
        warning("the lease of " + holder + " was last renewed " + (nowMs - at) / 1000 + " s ago (hard limit "
            + leaseHardLimitMs / 1000 + " s) and holds " + files + " open file(s): the leader recovers them");
      }
    });
  }

  /**
   * A directory is flagged exactly when it has a quota row, and every row's stored usage equals a recount of its
   * subtree (one per inode, the directory included; storage space is bytes times replication, a block being written
   * or recovered counting as a whole preferred block).
   */
  private void checkQuotas(AdminQueries.Snapshot snapshot, Map<Long, Long> openSpace) throws StoreException {
    Set<Long> withRows = new HashSet<>();
    forEachRow(snapshot, "SELECT inode_id, namespace_used, storage_space_used FROM directory_quotas", r -> {
      long id = Long.parseLong(r.get(0));
      quotaDirectories++;
      withRows.add(id);
      Row directory = byId.get(id);
      if (directory == null || !directory.directory()) {
        problem("a quota row names " + (directory == null ? "missing inode " + id : describe(directory)
            + ", not a directory"));
        return;
      }
      if (!directory.hasQuota()) {
        problem("directory " + describe(directory) + " has a quota row but is not flagged");
      }
      long[] usage = recount(id, openSpace);
      if (usage[0] != Long.parseLong(r.get(1)) || usage[1] != Long.parseLong(r.get(2))) {
        problem("the quota usage of " + describe(directory) + " is stored as namespace " + r.get(1)
            + ", storage space " + r.get(2) + " but a recount finds " + usage[0] + " and " + usage[1]);
      }
    });
    for (Row row : byId.values()) {
      if (row.hasQuota() && !withRows.contains(row.id())) {
        problem("directory " + describe(row) + " is flagged with a quota but has no quota row");
      }
    }
  }

  /** Inodes and storage space under {@code id}, itself included. */
  private long[] recount(long id, Map<Long, Long> openSpace) {
    long namespace = 0;
    long storage = 0;
    Deque<Long> queue = new ArrayDeque<>(List.of(id));
    Set<Long> seen = new HashSet<>();
    while (!queue.isEmpty()) {
      long next = queue.poll();
      if (!seen.add(next)) {
        continue; // a cycle: reported by the tree's checks
      }
      Row row = byId.get(next);
      namespace++;
      if (row != null && !row.directory()) {
        storage += row.underConstruction() ? openSpace.getOrDefault(next, 0L) : row.size() * row.replication();
      }
      queue.addAll(children.getOrDefault(next, List.of()));
    }
    return new long[] {namespace, storage};
  }

  /**
   * A directory flagged by a namenode has that namenode's {@code subtree_operations} row and the other way round
   * (design 017); a flag of a namenode no longer in the group is a warning (the next operation meeting it clears it).
   * Attributes and ACL entries belong to existing inodes.
   */
  private void checkSubtreeOperations(AdminQueries.Snapshot snapshot) throws StoreException {
    Set<Long> namenodes = new HashSet<>();
    forEachRow(snapshot, "SELECT id FROM namenodes", r -> namenodes.add(Long.parseLong(r.get(0))));
    Map<Long, Long> operations = new HashMap<>();
    forEachRow(snapshot, "SELECT root_id, namenode_id, operation FROM subtree_operations", r -> {
      subtreeOperations++;
      long root = Long.parseLong(r.get(0));
      long namenode = Long.parseLong(r.get(1));
      operations.put(root, namenode);
      Row directory = byId.get(root);
      if (directory == null || !directory.directory() || directory.subtreeOwner() != namenode) {
        problem("subtree operation " + r.get(2) + " of inode " + root + " by namenode " + namenode + " holds "
            + (directory == null ? "missing inode " + root : describe(directory) + ", flagged by namenode "
                + directory.subtreeOwner()));
      } else if (!namenodes.contains(namenode)) {
        warning("subtree operation " + r.get(2) + " of " + describe(directory) + " belongs to namenode " + namenode
            + ", no longer in the group: the next operation meeting it clears it");
      }
    });
    for (Row row : byId.values()) {
      if (row.subtreeOwner() != 0 && operations.get(row.id()) == null) {
        problem(describe(row) + " is flagged by namenode " + row.subtreeOwner() + " without a subtree_operations row");
      }
    }
    for (String table : new String[] {"xattrs", "acl_entries"}) {
      Set<Long> owners = new HashSet<>();
      forEachRow(snapshot, "SELECT inode_id FROM " + table, r -> owners.add(Long.parseLong(r.get(0))));
      for (long owner : owners) {
        if (!byId.containsKey(owner)) {
          problem(table + " rows of missing inode " + owner);
        }
      }
    }
  }

  /** Each id counter (the next id to hand out) is past every id of its kind in use. */
  private void checkIdCounters(AdminQueries.Snapshot snapshot) throws StoreException {
    Map<String, Long> counters = new HashMap<>();
    forEachRow(snapshot, "SELECT name, long_value FROM variables WHERE name LIKE 'next_id.%'",
        r -> counters.put(r.get(0), r.get(1) == null ? null : Long.parseLong(r.get(1))));
    long maxInode = byId.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    long maxBlock = blockOwner.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    long[] maxNamenode = {0};
    forEachRow(snapshot, "SELECT id FROM namenodes UNION ALL SELECT namenode_id FROM subtree_operations",
        r -> maxNamenode[0] = Math.max(maxNamenode[0], Long.parseLong(r.get(0))));
    for (Row row : byId.values()) {
      maxNamenode[0] = Math.max(maxNamenode[0], row.subtreeOwner());
    }
    counterAhead(counters, "next_id.inode", "inode id", maxInode);
    counterAhead(counters, "next_id.block", "block id", maxBlock);
    counterAhead(counters, "next_id.generation_stamp", "generation stamp", maxGenerationStamp);
    counterAhead(counters, "next_id.namenode", "namenode id", maxNamenode[0]);
  }

  private void counterAhead(Map<String, Long> counters, String name, String what, long maxInUse) {
    Long next = counters.get(name);
    if (next == null) {
      problem("the id counter " + name + " is missing");
    } else if (maxInUse >= next) {
      problem("the id counter " + name + " is " + next + ", but " + what + " " + maxInUse
          + " is in use: new ids would collide");
    }
  }
}

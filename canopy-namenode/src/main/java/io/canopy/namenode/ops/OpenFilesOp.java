package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * listOpenFiles (an administrator's call): the files held open by a lease, in inode id order after {@code afterId},
 * optionally only those under a directory, one page at a time. Every lease is read to build a page (leases are kept by
 * holder and renewal time, not by inode id), so the number of open files it looks at is bounded.
 */
public final class OpenFilesOp implements ClusterRead<OpenFilesOp.Page> {
  /** One open file: inode id, full path, lease holder and the machine the writer called from. */
  public record OpenFile(long inodeId, String path, String holder, String clientMachine) {
  }

  /** A page of open files and whether more follow it. */
  public record Page(List<OpenFile> files, boolean hasMore) {
  }

  private static final int LEASE_PAGE = 1000;

  private final long afterId;
  private final String underPath;
  private final int pageSize;
  private final int maxOpenFiles;

  public OpenFilesOp(long afterId, String underPath, int pageSize, int maxOpenFiles) {
    if (pageSize < 1 || maxOpenFiles < 1) {
      throw new IllegalArgumentException("page size and open-file bound must be positive: " + pageSize + ", "
          + maxOpenFiles);
    }
    this.afterId = afterId;
    this.underPath = underPath == null || underPath.isEmpty() || underPath.equals("/") ? "/" : trimSlash(underPath);
    this.pageSize = pageSize;
    this.maxOpenFiles = maxOpenFiles;
  }

  private static String trimSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  @Override
  public String name() {
    return "listOpenFiles";
  }

  @Override
  public Page execute(TransactionContext context) throws IOException {
    ClusterTables cluster = context.cluster();
    TreeMap<Long, String> holders = new TreeMap<>();
    Lease after = null;
    while (true) {
      List<Lease> leases = cluster.leases().renewedBefore(Long.MAX_VALUE, after, LEASE_PAGE);
      for (Lease lease : leases) {
        for (LeasePath file : cluster.leasePaths().ofHolder(lease.holder())) {
          if (file.inodeId() > afterId) {
            holders.put(file.inodeId(), lease.holder());
          }
        }
        if (holders.size() > maxOpenFiles) {
          throw new IOException("listOpenFiles: more than " + maxOpenFiles + " open files to look at; the bound is "
              + "there to keep this administrator's call from reading without limit");
        }
      }
      if (leases.size() < LEASE_PAGE) {
        break;
      }
      after = leases.get(leases.size() - 1);
    }
    Map<Long, Inode> byId = new HashMap<>();
    List<OpenFile> page = new ArrayList<>();
    for (Map.Entry<Long, String> entry : holders.entrySet()) {
      Optional<Inode> file = context.unlockedInodeById(entry.getKey());
      if (file.isEmpty() || !file.get().underConstruction()) {
        continue; // closed or deleted since its lease row was read
      }
      String path = pathOf(context, file.get(), byId);
      if (path == null || !(underPath.equals("/") || path.startsWith(underPath + "/"))) {
        continue;
      }
      if (page.size() == pageSize) {
        return new Page(page, true);
      }
      page.add(new OpenFile(entry.getKey(), path, entry.getValue(), file.get().clientMachine()));
    }
    return new Page(page, false);
  }

  /** The inode's full path, walking its ancestors by id; null when one vanished meanwhile. */
  private static String pathOf(TransactionContext context, Inode inode, Map<Long, Inode> byId) throws IOException {
    Deque<String> names = new ArrayDeque<>();
    Inode current = inode;
    while (current.id() != InodePartitioning.ROOT_ID) {
      names.addFirst(current.name());
      long parentId = current.parentId();
      Inode parent = byId.get(parentId);
      if (parent == null) {
        Optional<Inode> read = context.unlockedInodeById(parentId);
        if (read.isEmpty()) {
          return null;
        }
        parent = read.get();
        byId.put(parentId, parent);
      }
      current = parent;
    }
    return "/" + String.join("/", names);
  }
}

package io.canopy.namenode.quota;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.tx.TransactionContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts what a subtree uses against quotas (HDFS's computeQuotaUsage): one per inode, the root included, and the
 * storage space of its files. Closed files are counted from their size; the blocks of open files are read in one
 * round trip per page of files.
 */
public final class SubtreeUsage {
  /** Open files whose blocks one read fetches at most. */
  static final int FILES_PER_BLOCK_READ = 1000;

  private SubtreeUsage() {
  }

  /**
   * The usage of {@code inodes} (a subtree as {@link TransactionContext#subtree} returns it), whose files this
   * transaction holds at least at {@code held}.
   */
  public static Usage of(TransactionContext context, List<Inode> inodes, LockMode held) throws StoreException {
    long storageSpace = 0;
    Map<Long, Inode> open = new HashMap<>();
    for (Inode inode : inodes) {
      if (inode.directory()) {
        continue;
      }
      if (inode.underConstruction()) {
        open.put(inode.id(), inode);
      } else {
        storageSpace += StorageSpace.ofClosedFile(inode);
      }
    }
    List<Inode> openFiles = new ArrayList<>(open.values());
    for (int from = 0; from < openFiles.size(); from += FILES_PER_BLOCK_READ) {
      List<Inode> page = openFiles.subList(from, Math.min(openFiles.size(), from + FILES_PER_BLOCK_READ));
      List<Long> ids = new ArrayList<>();
      for (Inode file : page) {
        context.fileData(file, held); // the blocks are read under the file's lock
        ids.add(file.id());
      }
      for (Block block : context.cluster().blocks().ofFiles(ids)) {
        Inode file = open.get(block.inodeId());
        storageSpace += StorageSpace.ofBlock(file, block) * file.replication();
      }
    }
    return new Usage(inodes.size(), storageSpace);
  }
}

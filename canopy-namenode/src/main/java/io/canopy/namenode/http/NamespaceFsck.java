package io.canopy.namenode.http;

import io.canopy.namenode.smallfiles.SmallFilesDatanode;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Date;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * {@code hdfs fsck PATH} on Canopy: walks the tree under a path through the namenode's {@code ClientProtocol} (one
 * listing call per directory page, with the files' block locations), as the calling user, and writes HDFS's fsck
 * report (its summary lines, and per file with -files, -blocks, -locations, -racks, -openforwrite) ending in the line
 * HDFS's {@code DFSck} reads its exit status from. Memory is bounded by the directories waiting to be walked; the
 * report is written as the walk goes.
 */
final class NamespaceFsck {
  /** What the caller asked to see (DFSck's switches). */
  record Options(boolean files, boolean blocks, boolean locations, boolean racks, boolean openForWrite) {
  }

  /** Files per progress dot, as HDFS's fsck prints them without -files. */
  private static final int PROGRESS_FILES = 100;

  private final ClientProtocol namenode;
  private final Options options;
  private final PrintWriter out;
  private final LongSupplier clockMs;
  private final short defaultReplication;

  private long directories;
  private long symlinks;
  private long files;
  private long openFiles;
  private long openFilesSize;
  private long totalSize;
  private long totalBlocks;
  private long openFileBlocks;
  private long minimallyReplicated;
  private long overReplicated;
  private long underReplicated;
  private long missingBlocks;
  private long missingSize;
  private long corruptBlocks;
  private long corruptFiles;
  private long totalReplicas;
  private long missingReplicas;
  private long expectedReplicas;

  NamespaceFsck(ClientProtocol namenode, Options options, PrintWriter out, LongSupplier clockMs,
      short defaultReplication) {
    this.namenode = namenode;
    this.options = options;
    this.out = out;
    this.clockMs = clockMs;
    this.defaultReplication = defaultReplication;
  }

  /**
   * Checks {@code path}; the report's last line says HEALTHY, CORRUPT, or that the path does not exist.
   * {@code datanodeLocations} are the live datanodes' network locations (the report counts them and their racks).
   */
  void check(String path, String user, String remoteAddress, List<String> datanodeLocations) throws IOException {
    long start = clockMs.getAsLong();
    out.println("FSCK started by " + user + " from /" + remoteAddress + " for path " + path + " at "
        + new Date(start));
    HdfsFileStatus root = namenode.getFileInfo(path);
    if (root == null) {
      out.println("FSCK ended at " + new Date(clockMs.getAsLong()) + " in " + (clockMs.getAsLong() - start)
          + " milliseconds");
      out.print("\n\nPath '" + path + "' does not exist");
      return;
    }
    walk(path, root);
    Set<String> racks = new HashSet<>(datanodeLocations);
    boolean healthy = missingBlocks == 0 && corruptBlocks == 0;
    out.print("\nStatus: ");
    out.println(healthy ? "HEALTHY" : "CORRUPT");
    out.println(" Number of data-nodes:\t" + datanodeLocations.size());
    out.println(" Number of racks:\t\t" + racks.size());
    out.println(" Total dirs:\t\t\t" + directories);
    out.println(" Total symlinks:\t\t" + symlinks);
    out.println("\nReplicated Blocks:");
    out.println(summary());
    out.println("\nErasure Coded Block Groups:");
    out.println(" Total size:\t0 B\n Total files:\t0\n Total block groups (validated):\t0");
    out.println("FSCK ended at " + new Date(clockMs.getAsLong()) + " in " + (clockMs.getAsLong() - start)
        + " milliseconds");
    out.print("\n\nThe filesystem under path '" + path + "' " + (healthy ? "is HEALTHY" : "is CORRUPT"));
  }

  /** Depth first, directory pages in name order; a directory deleted during the walk is skipped. */
  private void walk(String path, HdfsFileStatus root) throws IOException {
    Deque<String> pending = new ArrayDeque<>();
    visit(path, root, pending);
    while (!pending.isEmpty()) {
      String directory = pending.pop();
      byte[] after = HdfsFileStatus.EMPTY_NAME;
      while (true) {
        DirectoryListing page = namenode.getListing(directory, after, true);
        if (page == null) {
          break;
        }
        for (HdfsFileStatus child : page.getPartialListing()) {
          visit(child.getFullName(directory), child, pending);
        }
        if (!page.hasMore()) {
          break;
        }
        after = page.getLastName();
      }
    }
  }

  private void visit(String path, HdfsFileStatus status, Deque<String> pending) throws IOException {
    if (status.isSymlink()) {
      symlinks++;
      if (options.files()) {
        out.println(path + " <symlink>");
      }
      return;
    }
    if (status.isDirectory()) {
      directories++;
      if (options.files()) {
        out.println(path + " <dir>");
      }
      pending.push(path);
      return;
    }
    LocatedBlocks blocks = status instanceof HdfsLocatedFileStatus located && located.getLocatedBlocks() != null
        ? located.getLocatedBlocks() : namenode.getBlockLocations(path, 0, Long.MAX_VALUE);
    checkFile(path, status, blocks);
  }

  private void checkFile(String path, HdfsFileStatus status, LocatedBlocks blocks) {
    boolean open = blocks != null && blocks.isUnderConstruction();
    int count = blocks == null ? 0 : blocks.locatedBlockCount();
    if (open) {
      openFiles++;
      openFilesSize += status.getLen();
      openFileBlocks += count;
      if (options.files() && options.openForWrite()) {
        out.println(path + " " + status.getLen() + " bytes, replicated: replication=" + status.getReplication()
            + ", " + count + " block(s), OPENFORWRITE: ");
      }
      return;
    }
    files++;
    totalSize += status.getLen();
    if (options.files()) {
      out.print(path + " " + status.getLen() + " bytes, replicated: replication=" + status.getReplication() + ", "
          + count + " block(s): ");
    } else if (files % PROGRESS_FILES == 0) {
      out.print('.'); // HDFS's progress on a big tree: a dot every 100 files, sent as it goes
      out.flush();
    }
    int fileMissing = 0;
    int fileCorrupt = 0;
    StringBuilder report = new StringBuilder();
    for (int i = 0; i < count; i++) {
      LocatedBlock block = blocks.get(i);
      int wanted = status.getReplication();
      boolean inDatabase = inDatabase(block);
      // a small file's block is kept by the database (design 016): as safe as its metadata, never under-replicated
      int live = inDatabase ? wanted : block.isCorrupt() ? 0 : block.getLocations().length;
      totalBlocks++;
      totalReplicas += live;
      expectedReplicas += wanted;
      if (block.isCorrupt()) {
        corruptBlocks++;
        fileCorrupt++;
      } else if (live == 0) {
        missingBlocks++;
        missingSize += block.getBlockSize();
        fileMissing++;
      }
      if (live >= 1) {
        minimallyReplicated++;
      }
      if (live > wanted) {
        overReplicated++;
      } else if (live < wanted) {
        underReplicated++;
        missingReplicas += wanted - live;
      }
      if (options.blocks()) {
        report.append(i).append(". ").append(block.getBlock()).append(" len=").append(block.getBlockSize())
            .append(" Live_repl=").append(live);
        if (inDatabase && (options.locations() || options.racks())) {
          report.append(" [in the metadata database]");
        } else if (options.locations() || options.racks()) {
          report.append(" [");
          DatanodeInfo[] locations = block.getLocations();
          for (int j = 0; j < locations.length; j++) {
            report.append(j == 0 ? "" : ", ").append(options.racks() ? locations[j].getNetworkLocation() + "/" : "")
                .append(locations[j].getXferAddr());
          }
          report.append(']');
        }
        report.append('\n');
      }
    }
    if (fileMissing > 0 || fileCorrupt > 0) {
      corruptFiles++;
    }
    if (options.files()) {
      out.print(fileMissing > 0 ? " MISSING " + fileMissing + " blocks" : "");
      out.print(fileCorrupt > 0 ? " CORRUPT " + fileCorrupt + " blocks" : "");
      out.print(fileMissing == 0 && fileCorrupt == 0 ? " OK\n" : "\n");
      out.print(report);
    }
  }

  private static boolean inDatabase(LocatedBlock block) {
    for (DatanodeInfo location : block.getLocations()) {
      if (SmallFilesDatanode.isSmallFilesDatanode(location)) {
        return true;
      }
    }
    return false;
  }

  private String summary() {
    StringBuilder text = new StringBuilder();
    text.append(" Total size:\t").append(totalSize).append(" B");
    if (openFilesSize != 0) {
      text.append(" (Total open files size: ").append(openFilesSize).append(" B)");
    }
    text.append("\n Total files:\t").append(files);
    if (openFiles != 0) {
      text.append(" (Files currently being written: ").append(openFiles).append(')');
    }
    text.append("\n Total blocks (validated):\t").append(totalBlocks);
    if (totalBlocks > 0) {
      text.append(" (avg. block size ").append(totalSize / totalBlocks).append(" B)");
    }
    if (openFileBlocks != 0) {
      text.append(" (Total open file blocks (not validated): ").append(openFileBlocks).append(')');
    }
    if (corruptFiles > 0) {
      text.append("\n  ********************************");
      text.append("\n  CORRUPT FILES:\t").append(corruptFiles);
      if (missingBlocks > 0) {
        text.append("\n  MISSING BLOCKS:\t").append(missingBlocks).append("\n  MISSING SIZE:\t\t").append(missingSize)
            .append(" B");
      }
      if (corruptBlocks > 0) {
        text.append("\n  CORRUPT BLOCKS: \t").append(corruptBlocks);
      }
      text.append("\n  ********************************");
    }
    text.append("\n Minimally replicated blocks:\t").append(minimallyReplicated).append(percent(minimallyReplicated));
    text.append("\n Over-replicated blocks:\t").append(overReplicated).append(percent(overReplicated));
    text.append("\n Under-replicated blocks:\t").append(underReplicated).append(percent(underReplicated));
    text.append("\n Mis-replicated blocks:\t\t0").append(percent(0));
    text.append("\n Default replication factor:\t").append(defaultReplication);
    text.append("\n Average block replication:\t").append(totalBlocks == 0 ? "0.0"
        : Float.toString((float) totalReplicas / totalBlocks));
    text.append("\n Missing blocks:\t\t").append(missingBlocks);
    text.append("\n Corrupt blocks:\t\t").append(corruptBlocks);
    text.append("\n Missing replicas:\t\t").append(missingReplicas);
    if (expectedReplicas > 0) {
      text.append(" (").append((float) (missingReplicas * 100) / expectedReplicas).append(" %)");
    }
    return text.toString();
  }

  private String percent(long blocks) {
    return totalBlocks == 0 ? "" : " (" + (float) (blocks * 100) / totalBlocks + " %)";
  }
}

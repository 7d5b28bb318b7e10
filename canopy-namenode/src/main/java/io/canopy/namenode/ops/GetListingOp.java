package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.blocks.BlockLocator;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * getListing: one batch of a directory's children after {@code startAfter}, in byte order of name, under a shared
 * lock on the directory; with block locations of the files when asked, and, as HDFS, the number of entries left
 * after the batch (the stock client sizes its listing with it). Listing a directory needs read and execute on it
 * (HDFS); a file lists itself with execute on the ancestors only.
 */
public final class GetListingOp implements Operation<DirectoryListing> {
  private final FsPath path;
  private final String startAfter;
  private final boolean needLocation;
  private final int limit;
  private final BlockLocator locator;
  private final ListingCursors cursors;
  private final PermissionChecker permissions;

  public GetListingOp(FsPath path, String startAfter, boolean needLocation, int limit, BlockLocator locator,
      ListingCursors cursors, PermissionChecker permissions) {
    this.path = path;
    this.cursors = cursors;
    this.permissions = permissions;
    this.startAfter = startAfter;
    this.needLocation = needLocation;
    this.limit = limit;
    this.locator = locator;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public String name() {
    return "getListing";
  }

  @Override
  public LockRequest locks() {
    // The first page of children comes in the same round trip as the path.
    return LockRequest.of(PathLock.read(path).withChildren(startAfter, limit + 1));
  }

  @Override
  public DirectoryListing execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode target = resolved.target();
    if (target == null) {
      return null;
    }
    if (target.directory()) {
      permissions.checkPathAccess(context, resolved, FsAction.READ_EXECUTE);
    }
    byte policy = resolved.effectiveStoragePolicy(path.depth());
    if (!target.directory()) {
      // HDFS lists a file as itself, unnamed, with its block locations when asked (listLocatedStatus, listFiles)
      FileBlocks fileBlocks = needLocation ? blocksOf(context, List.of(target)).get(target.id()) : null;
      return new DirectoryListing(new HdfsFileStatus[] {
          FileStatusFactory.located(target, locate(target, fileBlocks), policy)}, 0);
    }
    List<Inode> children = context.children(target, startAfter, limit + 1, LockMode.NONE);
    boolean more = children.size() > limit;
    long remaining = 0;
    if (more) {
      children = children.subList(0, limit);
      remaining = remainingAfterPage(context, target, children.get(limit - 1).name());
    }
    Map<Long, FileBlocks> blocks = needLocation ? blocksOf(context, children) : Map.of();
    HdfsFileStatus[] statuses = new HdfsFileStatus[children.size()];
    for (int i = 0; i < statuses.length; i++) {
      Inode child = children.get(i);
      statuses[i] = FileStatusFactory.listed(child, locate(child, blocks.get(child.id())), policy);
    }
    return new DirectoryListing(statuses, (int) Math.min(Integer.MAX_VALUE, remaining));
  }

  /**
   * HDFS's count of the entries after a full page ending at {@code lastName}: from the directory's children count
   * for the first page, from the previous page of the same listing on this namenode, else counted (one round trip);
   * remembered for the next page. At least one, as the page is not the last.
   */
  private long remainingAfterPage(TransactionContext context, Inode directory, String lastName) throws IOException {
    OptionalLong known = startAfter.isEmpty() ? OptionalLong.empty()
        : cursors.remainingAfter(path.toString(), startAfter, directory);
    long after = known.isPresent() ? known.getAsLong() : context.childrenAfter(directory, startAfter);
    long remaining = Math.max(1, after - limit);
    context.afterCommit(() -> cursors.remember(path.toString(), lastName, directory, remaining));
    return remaining;
  }

  /** The whole file's located blocks, or null when no locations were asked for (or it is a directory). */
  private LocatedBlocks locate(Inode file, FileBlocks fileBlocks) throws IOException {
    return fileBlocks == null ? null
        : locator.locate(file, fileBlocks.blocks, fileBlocks.replicas, fileBlocks.ucReplicas, 0, file.size());
  }

  private static final class FileBlocks {
    final List<Block> blocks = new ArrayList<>();
    final List<Replica> replicas = new ArrayList<>();
    final List<UcReplica> ucReplicas = new ArrayList<>();
  }

  /** Blocks and replicas of every file in the batch: three round trips whatever the batch size. */
  private static Map<Long, FileBlocks> blocksOf(TransactionContext context, List<Inode> children)
      throws IOException {
    Map<Long, FileBlocks> result = new HashMap<>();
    FileTables transaction = null;
    for (Inode child : children) {
      if (!child.directory() && !child.isSymlink()) { // a link has no blocks: listed without locations
        transaction = context.fileData(child, LockMode.NONE);
        result.put(child.id(), new FileBlocks());
      }
    }
    if (transaction == null) {
      return result;
    }
    transaction.blocks().ofFiles(result.keySet()).forEach(b -> result.get(b.inodeId()).blocks.add(b));
    transaction.replicas().ofFiles(result.keySet()).forEach(r -> result.get(r.inodeId()).replicas.add(r));
    transaction.ucReplicas().ofFiles(result.keySet()).forEach(r -> result.get(r.inodeId()).ucReplicas.add(r));
    return result;
  }
}

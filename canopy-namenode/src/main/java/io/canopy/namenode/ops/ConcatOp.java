package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.replication.CorruptReplicas;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.VoidAtMostOnce;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * concat: moves the blocks of the source files, in the order given, to the end of the target file and removes the
 * sources, in one transaction (HDFS's FSDirConcatOp, with its rules and messages: sources are distinct, closed,
 * non-empty files in the target's directory, none the target, none with a larger preferred block size). Every path is
 * declared up front, so the target, the sources and their directory are locked exclusively in the global order. The
 * blocks keep their ids, stamps and replicas; their rows (and their lookup, replica and queue rows) are rewritten under
 * the target's inode, so datanodes see nothing of it.
 */
public final class ConcatOp implements VoidAtMostOnce {
  /**
   * Sources one concat takes at most: every source is locked and read in the one transaction. HDFS has no limit; the
   * biggest users (distcp's -blocksperchunk) concat one source per chunk of a file, far fewer than this.
   */
  public static final int MAX_SOURCES = 10_000;

  private final NamespaceServices services;
  private final FsPath target;
  private final List<FsPath> sources;
  private final PermissionChecker permissions;

  public ConcatOp(NamespaceServices services, FsPath target, List<FsPath> sources, PermissionChecker permissions) {
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("No sources given");
    }
    if (sources.size() > MAX_SOURCES) {
      throw new HadoopIllegalArgumentException("concat: " + sources.size() + " source files into " + target
          + " is more than the " + MAX_SOURCES + " one call may take (Canopy moves them in one transaction); "
          + "concat them in several calls");
    }
    this.services = services;
    this.target = target;
    this.sources = List.copyOf(sources);
    this.permissions = permissions;
  }

  @Override
  public String name() {
    return "concat";
  }

  @Override
  public LockRequest locks() {
    PathLock[] locks = new PathLock[sources.size() + 1];
    locks[0] = PathLock.writeTargetAndParent(target).withFileData();
    for (int i = 0; i < sources.size(); i++) {
      locks[i + 1] = PathLock.writeTargetAndParent(sources.get(i)).withFileData();
    }
    return LockRequest.of(locks).withQuota();
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath resolvedTarget = context.path(target);
    PathChecks.checkTraverse(context, resolvedTarget, permissions);
    // HDFS's order: write on the target before the target's checks, then each source's access before its own
    permissions.checkPathAccess(context, resolvedTarget, FsAction.WRITE);
    Inode file = PathChecks.requireFile(resolvedTarget);
    if (file.underConstruction()) {
      throw new HadoopIllegalArgumentException("concat: target file " + target + " is under construction");
    }
    List<Inode> sourceFiles = verifySources(context, file);
    long blocks = context.readFileData(file, LockMode.EXCLUSIVE).blocks().size();
    for (Inode source : sourceFiles) {
      blocks += context.readFileData(source, LockMode.EXCLUSIVE).blocks().size();
    }
    services.limits().checkConcatBlocks(target, blocks);
    // HDFS's computeQuotaDeltas, checked on the target's ancestors: one inode less per source, and a source whose
    // replication differs from the target's takes the target's (the sources share the target's directory)
    long spaceDelta = 0;
    for (Inode source : sourceFiles) {
      spaceDelta += source.size() * (file.replication() - source.replication());
    }
    QuotaUpdater.chargeChangeOf(context, file, -sourceFiles.size(), spaceDelta, true);
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    int index = context.readFileData(file, LockMode.EXCLUSIVE).blocks().size();
    boolean inDatabase = SmallFileConcat.needed(context, sourceFiles);
    long added = inDatabase ? SmallFileConcat.run(context, services, target, file, sourceFiles) : 0;
    for (Inode source : inDatabase ? List.<Inode>of() : sourceFiles) {
      FileData data = context.readFileData(source, LockMode.EXCLUSIVE);
      Map<Long, Set<String>> replicas = ReplicationQueue.storagesByBlock(data.replicas());
      Map<Long, Set<String>> corrupt = ReplicationQueue.storagesByBlock(data.corruptReplicas());
      for (Block block : data.blocks()) {
        transaction.blocks().delete(block.key());
        transaction.blocks().insert(block.movedTo(file.id(), index++));
        transaction.blockLookup().delete(block.blockId());
        transaction.blockLookup().insert(block.blockId(), file.id());
        ReplicationQueue.dequeue(transaction, source.id(), block.blockId());
        // the target's replication applies from now on (HDFS's setReplication of every moved block)
        int good = replicas.getOrDefault(block.blockId(), Set.of()).size();
        if (corrupt.containsKey(block.blockId())) {
          CorruptReplicas.queue(transaction, file.id(), block.blockId(), good, file.replication(), services.now());
        } else {
          ReplicationQueue.queue(transaction, file.id(), block.blockId(), good, file.replication(), services.now());
        }
        added += block.numBytes();
      }
      for (Replica replica : data.allReplicas()) { // corrupt ones move too, still corrupt
        transaction.replicas().delete(replica.key());
        transaction.replicas().insert(replica.ofFile(file.id()));
      }
      context.deleteInode(source); // its blocks are the target's now: nothing of it is left to remove
    }
    if (inDatabase) {
      for (Inode source : sourceFiles) {
        context.deleteInode(source); // its bytes are the target's now
      }
    }
    long now = services.now();
    context.updateInode(file.withSize(file.size() + added).withTimes(now, file.accessTime()));
    Inode parent = resolvedTarget.parent();
    context.updateInode(parent.withChildrenCount(parent.childrenCount() - sourceFiles.size())
        .withTimes(now, parent.accessTime()));
    return null;
  }

  /** HDFS's verifySrcFiles: the source files, in order, or its exception for the first that breaks a rule. */
  private List<Inode> verifySources(TransactionContext context, Inode file) throws IOException {
    List<Inode> sourceFiles = new ArrayList<>();
    Set<Long> distinct = new HashSet<>();
    for (FsPath source : sources) {
      ResolvedPath resolvedSource = context.path(source);
      PathChecks.checkTraverse(context, resolvedSource, permissions);
      // read the source, and write on its directory (and its sticky bit) as it is deleted
      permissions.checkPathAccess(context, resolvedSource, FsAction.READ);
      permissions.checkParentAccess(context, resolvedSource, FsAction.WRITE);
      Inode sourceFile = PathChecks.requireFile(resolvedSource);
      if (sourceFile.parentId() != file.parentId()) {
        throw new HadoopIllegalArgumentException("Source file " + source + " is not in the same directory with "
            + "the target " + target);
      }
      if (sourceFile.id() == file.id()) {
        throw new HadoopIllegalArgumentException("concat: the src file " + source + " is the same with the target "
            + "file " + target);
      }
      if (sourceFile.underConstruction()
          || context.readFileData(sourceFile, LockMode.EXCLUSIVE).blocks().isEmpty()) {
        throw new HadoopIllegalArgumentException("concat: source file " + source
            + " is invalid or empty or underConstruction");
      }
      if (sourceFile.preferredBlockSize() > file.preferredBlockSize()) {
        throw new HadoopIllegalArgumentException("concat: source file " + source + " has preferred block size "
            + sourceFile.preferredBlockSize() + " which is greater than the target file's preferred block size "
            + file.preferredBlockSize());
      }
      if (distinct.add(sourceFile.id())) {
        sourceFiles.add(sourceFile);
      }
    }
    if (sourceFiles.size() < sources.size()) {
      throw new HadoopIllegalArgumentException("concat: at least two of the source files are the same");
    }
    return sourceFiles;
  }
}

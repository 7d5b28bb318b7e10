package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.AtMostOnce;
import io.canopy.namenode.tx.ResultCodecs;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * create: a new file under construction, leased to its writer, under exclusive locks on the parent (or the
 * deepest existing ancestor, when parents are created) and on the target.
 */
public final class CreateOp implements AtMostOnce<HdfsFileStatus> {
  /** What the client asked for. */
  public record Request(FsPath path, FsPermission permission, String holder, String clientMachine, boolean create,
      boolean overwrite, boolean createParent, short replication, long blockSize, String user) {
  }

  /**
   * The file to create exists and may not be overwritten, but is open by a writer past the soft limit: HDFS then
   * recovers its lease and fails the create, which {@link RecoverLeaseOp#forCreate} does in a transaction of its
   * own. Nothing was written; the caller runs that operation and answers with its outcome.
   */
  public static final class WriterPastSoftLimitException extends IOException {
    WriterPastSoftLimitException(FsPath path, String writer) {
      super("create of " + path + " without overwrite finds it open by " + writer + ", past the lease soft limit");
    }
  }

  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final Request request;

  public CreateOp(NamespaceServices services, DatanodeRegistry registry, Request request) {
    this.services = services;
    this.registry = registry;
    this.request = request;
  }

  @Override
  public byte[] encodeResult(HdfsFileStatus result) {
    return ResultCodecs.encodeStatus(result);
  }

  @Override
  public HdfsFileStatus decodeResult(byte[] encoded) throws IOException {
    return ResultCodecs.decodeStatus(encoded);
  }

  @Override
  public String name() {
    return "create";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.writeTargetAndParent(request.path)).withLease(request.holder);
  }

  @Override
  public HdfsFileStatus execute(TransactionContext context) throws IOException {
    FsPath path = request.path;
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverseForCreate(resolved);
    if (path.isRoot()) {
      throw new FileAlreadyExistsException(path + " already exists as a directory");
    }
    services.limits().checkReplication(path, request.replication);
    services.limits().checkBlockSize(path, request.blockSize);
    Inode existing = resolved.target();
    Inode parent;
    if (existing != null) {
      checkReplaceable(context, existing);
      InodeRemover.removeSubtree(context, registry, existing);
      parent = resolved.parent().withChildrenCount(resolved.parent().childrenCount() - 1);
    } else {
      if (!request.create) {
        throw new FileNotFoundException("Can't overwrite non-existent " + path);
      }
      parent = resolved.parent();
      if (parent == null) {
        if (!request.createParent) {
          throw new FileNotFoundException("Parent directory doesn't exist: " + path.parent());
        }
        // Unlike mkdirs, HDFS's create gives missing parents the deepest existing directory's permission (not the
        // file's), plus write and execute for the owner.
        FsPermission inherited = new FsPermission(resolved.deepestExisting().permission());
        parent = DirectoryMaker.createMissing(context, services, resolved, path.depth(),
            DirectoryMaker.withImplicitOwnerWriteExecute(inherited), request.user);
      }
    }
    long now = services.now();
    Inode file = new Inode(services.ids().next(IdKind.INODE), InodePartitioning.partitionOf(parent, path.name()), parent.id(), path.name(), false, request.permission.toShort(), request.user, parent.group(),
        now, now, 0, request.replication, request.blockSize, (byte) 0, true, request.holder, request.clientMachine,
        null, 0);
    DirectoryMaker.attach(context, services, parent, path.parent(), file);
    Leases.add(context, file, request.holder, now);
    return FileStatusFactory.status(file);
  }

  private void checkReplaceable(TransactionContext context, Inode existing) throws IOException {
    FsPath path = request.path;
    if (existing.directory()) {
      throw new FileAlreadyExistsException(path + " already exists as a directory");
    }
    if (request.overwrite) {
      return;
    }
    if (existing.underConstruction()) {
      LeaseTakeover.requireRecoverable(context, path, existing, request.holder, request.clientMachine,
          LeaseTakeover.Purpose.CREATE_FILE, services.leaseLimits(), services.now());
      throw new WriterPastSoftLimitException(path, existing.clientName());
    }
    throw new FileAlreadyExistsException(path + " for client " + request.clientMachine + " already exists");
  }
}

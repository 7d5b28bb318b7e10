package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.InodeAcls;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.AtMostOnce;
import io.canopy.namenode.tx.ResultCodecs;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * create: a new file under construction, leased to its writer, under exclusive locks on the parent (or the
 * deepest existing ancestor, when parents are created) and on the target. The caller needs execute on the
 * ancestors, write on the deepest existing one and, to overwrite, write on the file (HDFS); it owns the new file,
 * which takes the parent's group.
 */
public final class CreateOp implements AtMostOnce<HdfsFileStatus> {
  /** What the client asked for; {@code storagePolicy}: the new file's own storage policy id, 0 for none. */
  public record Request(FsPath path, FsPermission permission, String holder, String clientMachine, boolean create,
      boolean overwrite, boolean createParent, short replication, long blockSize, byte storagePolicy) {
    /** Without a storage policy of its own: the file inherits its directory's. */
    public Request(FsPath path, FsPermission permission, String holder, String clientMachine, boolean create,
        boolean overwrite, boolean createParent, short replication, long blockSize) {
      this(path, permission, holder, clientMachine, create, overwrite, createParent, replication, blockSize, (byte) 0);
    }
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
  private final PermissionChecker permissions;

  public CreateOp(NamespaceServices services, DatanodeRegistry registry, Request request,
      PermissionChecker permissions) {
    this.services = services;
    this.registry = registry;
    this.request = request;
    this.permissions = permissions;
  }

  /** What the client asked for. */
  public Request request() {
    return request;
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
    return LockRequest.of(PathLock.writeTargetAndParent(request.path)).withLease(request.holder).withQuota();
  }

  @Override
  public HdfsFileStatus execute(TransactionContext context) throws IOException {
    FsPath path = request.path;
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverseForCreate(context, resolved, permissions);
    if (path.isRoot()) {
      throw new FileAlreadyExistsException(path + " already exists as a directory");
    }
    services.limits().checkReplication(path, request.replication);
    services.limits().checkBlockSize(path, request.blockSize);
    permissions.checkAncestorAccess(context, resolved, FsAction.WRITE);
    Inode existing = resolved.target();
    Inode parent;
    if (existing != null) {
      checkReplaceable(context, resolved, existing);
      Usage removed = InodeRemover.removeSubtree(context, registry, existing);
      QuotaUpdater.release(context, resolved.above(), -removed.namespace(), -removed.storageSpace());
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
        // HDFS: missing parents take the deepest existing directory's mode plus owner write and execute
        parent = DirectoryMaker.createMissing(context, services, resolved, path.depth(),
            DirectoryMaker.withImplicitOwnerWriteExecute(
                ModeBits.permission(resolved.deepestExisting().permission())), permissions.user());
      }
    }
    DirectoryMaker.admit(context, services, resolved, parent, path.parent(), path.name(),
        existing == null && resolved.parent() == null);
    long now = services.now();
    InodeAcls.Stored mode = NewInodeMode.of(context, services.permissions(), parent, request.permission, false);
    Inode file = Inode.builder()
        .id(services.ids().next(IdKind.INODE))
        .partitionId(InodePartitioning.partitionOf(parent, path.name()))
        .parentId(parent.id())
        .name(path.name())
        .permission(mode.permission())
        .owner(permissions.user())
        .group(parent.group())
        .modificationTime(now)
        .accessTime(now)
        .replication(request.replication)
        .preferredBlockSize(request.blockSize)
        .storagePolicy(request.storagePolicy)
        .underConstruction(true)
        .clientName(request.holder)
        .clientMachine(request.clientMachine)
        .build();
    DirectoryMaker.attach(context, parent, file);
    NewInodeMode.writeAcl(context, file, mode);
    Leases.add(context, file, request.holder, now);
    return FileStatusFactory.status(file, request.storagePolicy != 0 ? request.storagePolicy
        : resolved.effectiveStoragePolicy(path.depth() - 1));
  }

  private void checkReplaceable(TransactionContext context, ResolvedPath resolved, Inode existing)
      throws IOException {
    FsPath path = request.path;
    if (existing.directory()) {
      throw new FileAlreadyExistsException(path + " already exists as a directory");
    }
    if (request.overwrite) {
      permissions.checkPathAccess(context, resolved, FsAction.WRITE);
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

package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client takes over an open file (HDFS's recoverLease, and a create without overwrite over a file whose writer is
 * past the soft limit, which {@link CreateOp} hands over here): the file is closed at once when its blocks allow,
 * else its last block is put under recovery for the leader to carry out ({@link LeaseRecovery}). Refusals
 * ({@link LeaseTakeover}) are thrown before anything is written; the outcome of a release is committed and returned
 * for the caller to answer with.
 */
public final class RecoverLeaseOp implements Operation<ReleaseOutcome> {
  private static final Logger LOG = LoggerFactory.getLogger(RecoverLeaseOp.class);

  private final NamespaceServices services;
  private final FsPath path;
  private final String holder;
  private final String clientMachine;
  private final LeaseTakeover.Purpose purpose;
  private final PermissionChecker permissions;

  private RecoverLeaseOp(NamespaceServices services, FsPath path, String holder, String clientMachine,
      LeaseTakeover.Purpose purpose, PermissionChecker permissions) {
    this.services = services;
    this.path = path;
    this.holder = holder;
    this.clientMachine = clientMachine;
    this.purpose = purpose;
    this.permissions = permissions;
  }

  /**
   * recoverLease: recovers the file whatever its writer's lease. As in HDFS the caller needs execute on the
   * ancestors and, when the file is open, write on it.
   */
  public static RecoverLeaseOp recoverLease(NamespaceServices services, FsPath path, String holder,
      String clientMachine, PermissionChecker permissions) {
    return new RecoverLeaseOp(services, path, holder, clientMachine, LeaseTakeover.Purpose.RECOVER_LEASE,
        permissions);
  }

  /** A create without overwrite found the file open: recovered only if its writer is past the soft limit. */
  public static RecoverLeaseOp forCreate(NamespaceServices services, FsPath path, String holder,
      String clientMachine) {
    // the create checked the caller's permissions; HDFS checks nothing more before recovering
    return new RecoverLeaseOp(services, path, holder, clientMachine, LeaseTakeover.Purpose.CREATE_FILE,
        PermissionChecker.internal(services.permissions()));
  }

  /**
   * An append or a truncate found the file open by a writer past the soft limit ({@link LapsedWriterException}):
   * recovered only if that still holds.
   */
  public static RecoverLeaseOp forTakeover(NamespaceServices services, LapsedWriterException lapsed, String holder,
      String clientMachine) {
    // the append or truncate checked the caller's permissions; HDFS checks nothing more before recovering
    return new RecoverLeaseOp(services, lapsed.path(), holder, clientMachine, lapsed.purpose(),
        PermissionChecker.internal(services.permissions()));
  }

  @Override
  public boolean idempotent() {
    return true; // a re-run finds the recovery started (in progress) or the file closed
  }

  @Override
  public String name() {
    return "recoverLease";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path).withFileData());
  }

  @Override
  public ReleaseOutcome execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode file = resolved.target();
    if (file == null) {
      if (purpose != LeaseTakeover.Purpose.RECOVER_LEASE) {
        return ReleaseOutcome.of(ReleaseOutcome.Kind.NOT_OPEN, "the file is gone");
      }
      throw new FileNotFoundException("File does not exist: " + path);
    }
    if (file.directory()) {
      throw new FileNotFoundException("Path is not a file: " + path);
    }
    if (!file.underConstruction()) {
      return ReleaseOutcome.of(ReleaseOutcome.Kind.CLOSED, "the file is closed");
    }
    permissions.checkPathAccess(context, resolved, FsAction.WRITE);
    long now = services.now();
    LeaseTakeover.requireRecoverable(context, path, file, holder, clientMachine, purpose, services.leaseLimits(),
        now);
    String writer = file.clientName();
    ReleaseOutcome outcome = LeaseRecovery.release(context, services, file, LeaseRecovery.Starter.CLIENT);
    context.afterCommit(() -> LOG.info("{}: {} recovers {} (inode {}) from writer {}: {}, {}", purpose, holder, path,
        file.id(), writer, outcome.kind(), outcome.detail()));
    return outcome;
  }

  /** HDFS's message for this call: "Failed to OP path for holder on machine because reason". */
  public String message(String reason) {
    return LeaseTakeover.message(purpose, path, holder, clientMachine, reason);
  }
}

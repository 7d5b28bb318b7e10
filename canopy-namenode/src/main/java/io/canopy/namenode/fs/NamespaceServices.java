package io.canopy.namenode.fs;

import io.canopy.metadata.entity.NamespaceIdentity;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.safemode.SafeModeSettings;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;

/** What namespace operations share: limits, defaults, ids, the clock and the namespace identity. */
public final class NamespaceServices {
  private final FsLimits limits;
  private final LeaseLimits leaseLimits;
  private final IdGenerator ids;
  private final LongSupplier clockMs;
  private final NamespaceIdentity identity;
  private final long replicationReportGraceMs;
  private final SafeMode safeMode;
  private final PermissionSettings permissions;

  public NamespaceServices(Configuration conf, IdGenerator ids, LongSupplier clockMs, NamespaceIdentity identity) {
    this.limits = new FsLimits(conf);
    this.leaseLimits = LeaseLimits.from(conf);
    this.ids = ids;
    this.clockMs = clockMs;
    this.identity = identity;
    this.replicationReportGraceMs = NameNodeConfig.replicationReportGraceMs(conf);
    this.permissions = PermissionSettings.from(conf);
    this.safeMode = new SafeMode(SafeModeSettings.from(conf), clockMs);
  }

  public FsLimits limits() {
    return limits;
  }

  /** The lease soft and hard limits. */
  public LeaseLimits leaseLimits() {
    return leaseLimits;
  }

  public IdGenerator ids() {
    return ids;
  }

  /** Wall-clock milliseconds (modification times, lease renewals). */
  public long now() {
    return clockMs.getAsLong();
  }

  public String blockPoolId() {
    return identity.blockPoolId();
  }

  public NamespaceIdentity identity() {
    return identity;
  }

  /** This namenode's copy of the cluster-wide safe mode (manual and startup). */
  public SafeMode safeMode() {
    return safeMode;
  }

  /** Permission checking: the superuser, the superuser group, whether checks and ACLs are on. */
  public PermissionSettings permissions() {
    return permissions;
  }

  /** How long a just-closed file's blocks wait for their pipeline's replica reports before the leader copies them. */
  public long replicationReportGraceMs() {
    return replicationReportGraceMs;
  }
}

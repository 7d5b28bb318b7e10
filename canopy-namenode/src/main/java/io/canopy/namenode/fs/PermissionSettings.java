package io.canopy.namenode.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The namenode-wide permission settings, with HDFS's keys and defaults: checking on ({@code dfs.permissions.enabled},
 * true), the superuser group ({@code dfs.permissions.superusergroup}, supergroup), ACLs allowed
 * ({@code dfs.namenode.acls.enabled}, true as in Hadoop 3) and POSIX default-ACL inheritance with the unmasked mode
 * the client sends ({@code dfs.namenode.posix.acl.inheritance.enabled}, true). The superuser is the user the
 * namenode process runs as, as in HDFS.
 */
public final class PermissionSettings {
  private final boolean enabled;
  private final String superuser;
  private final String superGroup;
  private final boolean aclsEnabled;
  private final boolean posixAclInheritance;

  public PermissionSettings(boolean enabled, String superuser, String superGroup, boolean aclsEnabled,
      boolean posixAclInheritance) {
    this.enabled = enabled;
    this.superuser = superuser;
    this.superGroup = superGroup;
    this.aclsEnabled = aclsEnabled;
    this.posixAclInheritance = posixAclInheritance;
  }

  public static PermissionSettings from(Configuration conf) {
    String processUser;
    try {
      processUser = UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the user the namenode runs as (the superuser)", e);
    }
    return new PermissionSettings(
        conf.getBoolean(DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY, DFSConfigKeys.DFS_PERMISSIONS_ENABLED_DEFAULT),
        processUser, superGroup(conf),
        conf.getBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_DEFAULT),
        conf.getBoolean(DFSConfigKeys.DFS_NAMENODE_POSIX_ACL_INHERITANCE_ENABLED_KEY,
            DFSConfigKeys.DFS_NAMENODE_POSIX_ACL_INHERITANCE_ENABLED_DEFAULT));
  }

  /** HDFS's {@code dfs.permissions.superusergroup} (default supergroup). */
  public static String superGroup(Configuration conf) {
    return conf.get(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
        DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
  }

  /** The namenode acting on its own behalf: the superuser. */
  public Caller namenode() {
    return Caller.of(superuser, Set.of());
  }

  public boolean enabled() {
    return enabled;
  }

  public String superuser() {
    return superuser;
  }

  public String superGroup() {
    return superGroup;
  }

  public boolean aclsEnabled() {
    return aclsEnabled;
  }

  public boolean posixAclInheritance() {
    return posixAclInheritance;
  }
}

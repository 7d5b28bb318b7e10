package io.canopy.namenode.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * HDFS's superuser check, minimally (the full permission checker replaces it): the caller is the user the namenode
 * runs as, or a member of {@code dfs.permissions.superusergroup}; with {@code dfs.permissions.enabled} false,
 * everybody passes. The message is HDFS's.
 */
final class SuperuserPrivilege {
  private final boolean enabled;
  private final String owner;
  private final String superGroup;

  SuperuserPrivilege(Configuration conf) {
    this.enabled = conf.getBoolean("dfs.permissions.enabled", true);
    this.superGroup = conf.get("dfs.permissions.superusergroup", "supergroup");
    try {
      this.owner = UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the user the namenode runs as", e);
    }
  }

  /** Throws HDFS's AccessControlException unless {@code user} (in {@code groups}) is a superuser. */
  void check(String user, Set<String> groups, String operation) throws AccessControlException {
    if (enabled && !user.equals(owner) && !groups.contains(superGroup)) {
      throw new AccessControlException("Access denied for user " + user + ". Superuser privilege is required for "
          + "operation " + operation);
    }
  }
}

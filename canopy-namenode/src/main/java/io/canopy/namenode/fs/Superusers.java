package io.canopy.namenode.fs;

import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * HDFS's superuser: the user the namenode runs as, or a member of {@code dfs.permissions.superusergroup}. The
 * minimal check the trusted extended-attribute namespace and superuser-only storage policies need.
 */
public record Superusers(String fsOwner, String superGroup) {
  public boolean isSuperuser(UserGroupInformation caller) {
    return caller.getShortUserName().equals(fsOwner) || caller.getGroupsSet().contains(superGroup);
  }

  /** HDFS's refusal of a superuser-only operation. */
  public void check(UserGroupInformation caller, String operation) throws AccessControlException {
    if (!isSuperuser(caller)) {
      throw new AccessControlException("Access denied for user " + caller.getShortUserName()
          + ". Superuser privilege is required for operation " + operation);
    }
  }
}

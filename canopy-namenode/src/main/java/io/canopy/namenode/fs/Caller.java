package io.canopy.namenode.fs;

import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who calls an operation: the short user name and its groups. The groups are resolved on the namenode through
 * Hadoop's configured group mapping ({@code hadoop.security.group.mapping}, cached by Hadoop's {@code Groups}), as
 * HDFS resolves them for its permission checker, never taken from the client. They are looked up lazily, once per
 * call: the namenode's own user (the superuser, which most calls of tests and benchmarks come from) never needs them.
 */
public final class Caller {
  private final String user;
  private final Supplier<Set<String>> lookup;
  private volatile Set<String> groups;

  private Caller(String user, Supplier<Set<String>> lookup) {
    this.user = Objects.requireNonNull(user, "user");
    this.lookup = lookup;
  }

  /** The RPC caller (or the process user outside RPC); its groups come from the server's group mapping. */
  public static Caller of(UserGroupInformation ugi) {
    return new Caller(ugi.getShortUserName(), ugi::getGroupsSet);
  }

  /** A caller with known groups (the namenode itself, and tests). */
  public static Caller of(String user, Set<String> groups) {
    Set<String> copy = Set.copyOf(groups);
    return new Caller(user, () -> copy);
  }

  public String user() {
    return user;
  }

  public Set<String> groups() {
    Set<String> resolved = groups;
    if (resolved == null) {
      resolved = Set.copyOf(lookup.get());
      groups = resolved;
    }
    return resolved;
  }

  public boolean isMemberOf(String group) {
    return groups().contains(group);
  }

  @Override
  public String toString() {
    return user;
  }
}

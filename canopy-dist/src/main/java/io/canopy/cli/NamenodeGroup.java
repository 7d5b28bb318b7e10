package io.canopy.cli;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.namenode.membership.LeaderElection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The namenode group as the metadata database records it (table {@code namenodes}, variables {@code leader.id} and
 * {@code leader.round-ms}), each member matched with the namenode role of this cluster directory that listens on its
 * RPC address. Namenodes join with a new id every time they start, so the id is how operators name a namenode
 * process ({@code canopy admin kill-namenode ID}); the role is how canopy finds its pid.
 */
final class NamenodeGroup {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost");

  /** One descriptor; {@code role} empty when no namenode of this cluster directory has its address. */
  record Member(NamenodeRecord descriptor, Optional<Role> role, boolean leader) {
    long id() {
      return descriptor.id();
    }
  }

  private final List<Member> members;
  private final OptionalLong roundMs;

  private NamenodeGroup(List<Member> members, OptionalLong roundMs) {
    this.members = List.copyOf(members);
    this.roundMs = roundMs;
  }

  /** Reads the group; the leader is {@code leader.id} when that namenode's descriptor exists. */
  static NamenodeGroup read(MetadataStore store, ClusterProperties cluster) throws StoreException {
    List<NamenodeRecord> descriptors;
    long leaderId;
    OptionalLong roundMs;
    try (Transaction transaction = store.beginReadOnly()) {
      descriptors = transaction.namenodes().all();
      leaderId = transaction.variables().getLong(LeaderElection.LEADER_ID, LockMode.NONE).orElse(0);
      roundMs = transaction.variables().getLong(LeaderElection.ROUND_MS, LockMode.NONE);
      transaction.commit();
    }
    List<Member> members = new ArrayList<>();
    for (NamenodeRecord descriptor : descriptors) {
      members.add(new Member(descriptor, roleAt(cluster, descriptor.rpcAddress()), descriptor.id() == leaderId));
    }
    return new NamenodeGroup(members, roundMs);
  }

  /** The namenode role of {@code cluster} listening on {@code rpcAddress} (host:port on loopback), if any. */
  static Optional<Role> roleAt(ClusterProperties cluster, String rpcAddress) {
    int colon = rpcAddress.lastIndexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    String host = rpcAddress.substring(0, colon);
    if (host.startsWith("/")) {
      host = host.substring(1);
    }
    if (!LOOPBACK_HOSTS.contains(host)) {
      return Optional.empty();
    }
    int port;
    try {
      port = Integer.parseInt(rpcAddress.substring(colon + 1));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    for (int i = 1; i <= cluster.namenodes(); i++) {
      Integer rolePort = cluster.ports().get(Role.namenode(i).name());
      if (rolePort != null && rolePort == port) {
        return Optional.of(Role.namenode(i));
      }
    }
    return Optional.empty();
  }

  /** Every descriptor, in id order. */
  List<Member> members() {
    return members;
  }

  Optional<Member> member(long id) {
    return members.stream().filter(member -> member.id() == id).findFirst();
  }

  /** The member whose descriptor is for {@code role}'s address, if it joined. */
  Optional<Member> memberOf(Role role) {
    return members.stream().filter(member -> member.role().equals(Optional.of(role))).findFirst();
  }

  Optional<Member> leader() {
    return members.stream().filter(Member::leader).findFirst();
  }

  /** The election round time the leader publishes ({@code leader.round-ms}), when it does. */
  OptionalLong roundMs() {
    return roundMs;
  }
}

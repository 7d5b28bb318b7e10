package io.canopy.namenode.replication;

import io.canopy.namenode.topology.NetworkLocation;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a block's live replicas are spread as placement keeps them (design 019), the way HDFS's default policy
 * verifies racks: over at least {@code min(2, replication)} failure domains when the live cluster has that many. The
 * domains are zones when any live datanode has one, else racks. A datanode of no zone in a cluster with zones (one
 * the topology does not place) is in no domain: its replica protects no zone. A block that fails this is mis-placed
 * (written while a single zone was up, say): the leader copies it to another domain, then removes the excess replica
 * from the crowded one.
 *
 * @param zoned whether the domains are zones (some live datanode has a zone) rather than racks
 * @param liveDomains how many distinct domains the live datanodes are in
 */
public record ReplicaSpread(boolean zoned, int liveDomains) {
  /** The domains a block spans at least, when its replication and the cluster allow. */
  public static final int WANTED_DOMAINS = 2;

  public ReplicaSpread {
    if (liveDomains < 0) {
      throw new IllegalArgumentException("invariant: live failure domains " + liveDomains + " < 0");
    }
  }

  /** The spread of a cluster whose live datanodes are at {@code live}. */
  public static ReplicaSpread of(Collection<NetworkLocation> live) {
    boolean zoned = live.stream().anyMatch(NetworkLocation::hasZone);
    return new ReplicaSpread(zoned, domains(live, zoned).size());
  }

  /** Whether any block can be mis-placed at all: the live cluster spans two domains or more. */
  public boolean mayMisplace() {
    return liveDomains >= WANTED_DOMAINS;
  }

  /** The domains a block of replication {@code replication} spans at least. */
  public int wanted(int replication) {
    return Math.min(WANTED_DOMAINS, Math.min(replication, liveDomains));
  }

  /**
   * Whether replicas at {@code held} are spread enough for a block of replication {@code replication}; always while
   * the live cluster spans one domain (a block held only by datanodes of no zone included: nothing to spread it to).
   */
  public boolean satisfied(Collection<NetworkLocation> held, int replication) {
    return !mayMisplace() || domains(held, zoned).size() >= wanted(replication);
  }

  /** Whether a replica at {@code candidate} would add a domain to those of {@code held}. */
  public boolean addsDomain(NetworkLocation candidate, Collection<NetworkLocation> held) {
    Set<String> domains = domains(held, zoned);
    Set<String> with = domains(List.of(candidate), zoned);
    return !with.isEmpty() && !domains.containsAll(with);
  }

  private static Set<String> domains(Collection<NetworkLocation> locations, boolean zoned) {
    Set<String> domains = new HashSet<>();
    for (NetworkLocation location : locations) {
      if (!zoned) {
        domains.add(location.rack());
      } else if (location.hasZone()) {
        domains.add(location.zone());
      }
    }
    return domains;
  }
}

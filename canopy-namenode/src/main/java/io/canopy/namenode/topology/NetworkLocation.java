package io.canopy.namenode.topology;

import java.util.Objects;

/**
 * Where a datanode or a client is, from its Hadoop network location ({@code /az/rack}, design 019): the zone is the
 * location's first component when it has two or more ({@code /az1/rack1} is rack {@code /az1/rack1} of zone
 * {@code /az1}), and a one-component location ({@code /default-rack}, {@code /rack7}) is a rack of no zone, so a
 * cluster without zones places and sorts as HDFS does with racks.
 */
public record NetworkLocation(String zone, String rack) {
  /** HDFS's location of a node the topology mapping does not place. */
  public static final String DEFAULT_RACK = "/default-rack";
  /** The location of a client or node nobody placed: the default rack, of no zone. */
  public static final NetworkLocation UNKNOWN = new NetworkLocation("", DEFAULT_RACK);

  public NetworkLocation {
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(rack, "rack");
  }

  /**
   * Parses a network location as HDFS normalizes it: a leading '/', components separated by '/', no empty component,
   * a trailing '/' dropped.
   *
   * @throws IllegalArgumentException naming the location when it is not one
   */
  public static NetworkLocation parse(String given) {
    String location = given != null && given.length() > 1 && given.endsWith("/")
        ? given.substring(0, given.length() - 1) : given;
    if (location == null || location.isEmpty() || location.charAt(0) != '/' || location.length() == 1
        || location.endsWith("/") || location.contains("//")) {
      throw new IllegalArgumentException("Network location '" + given + "' is not of the form /zone/rack or "
          + "/rack (a leading '/', non-empty components)");
    }
    int second = location.indexOf('/', 1);
    return new NetworkLocation(second < 0 ? "" : location.substring(0, second), location);
  }

  /** {@link #parse}, or {@link #UNKNOWN} for a null or malformed location. */
  public static NetworkLocation parseOrUnknown(String location) {
    try {
      return parse(location);
    } catch (IllegalArgumentException e) {
      return UNKNOWN;
    }
  }

  /** Whether the location names a zone (two or more components); a one-component one is a rack of no zone. */
  public boolean hasZone() {
    return !zone.isEmpty();
  }

  public boolean sameZone(NetworkLocation other) {
    return zone.equals(other.zone);
  }

  public boolean sameRack(NetworkLocation other) {
    return rack.equals(other.rack);
  }
}

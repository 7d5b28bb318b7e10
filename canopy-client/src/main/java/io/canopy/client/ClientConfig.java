package io.canopy.client;

import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;

/**
 * Every {@code canopy.client.*} key, with its default and a typed getter. The nameservice itself (which namenodes,
 * which provider) is Hadoop's HA configuration, written by {@link Nameservice#configure}.
 */
public final class ClientConfig {
  /** How the client picks a namenode per call: {@code random}, {@code round-robin}, {@code sticky} or the default. */
  public static final String NAMENODE_SELECTION = "canopy.client.namenode-selection";
  public static final String NAMENODE_SELECTION_DEFAULT = SelectionPolicy.RANDOM_STICKY.configName();

  /**
   * The client's location domain (availability zone); namenodes of the same domain are preferred while one of them
   * is live. 0: no preference.
   */
  public static final String LOCATION_DOMAIN_ID = "canopy.client.location-domain-id";
  public static final int LOCATION_DOMAIN_ID_DEFAULT = 0;

  /**
   * The client's network location as the cluster's topology mapping would give it ({@code /zone/rack}, e.g.
   * {@code /az1/rack1}): the namenode lists the replicas of the client's zone, then of its rack, first in every
   * located block, and puts the first replica of the client's writes in its rack, else its zone. Sent with every
   * open, and declared to each namenode the client calls through Canopy's failover provider. Unset: the namenode
   * places the client by its IP address, as HDFS does.
   */
  public static final String NETWORK_LOCATION = "canopy.client.network-location";
  /** How often a client declares its {@link #NETWORK_LOCATION} again to a namenode it calls. */
  public static final long DECLARE_LOCATION_AGAIN_MS = 60_000;

  /**
   * How often the client asks a namenode for the live namenode list while it is making calls. 0 or less: never;
   * the configured addresses are then the whole list.
   */
  public static final String NAMENODE_LIST_REFRESH_MS = "canopy.client.namenode-list.refresh-ms";
  public static final long NAMENODE_LIST_REFRESH_MS_DEFAULT = 30_000;

  /** How long a namenode that failed a call at the connection level is avoided while others are available. */
  public static final String FAILED_NAMENODE_AVOID_MS = "canopy.client.failed-namenode.avoid-ms";
  public static final long FAILED_NAMENODE_AVOID_MS_DEFAULT = 30_000;

  /** Seed of the random namenode choice; unset: a new seed per client (logged at debug level). */
  public static final String RANDOM_SEED = "canopy.client.random-seed";

  /** How long one namenode-list request may take before the client gives up on that namenode. */
  static final int NAMENODE_LIST_RPC_TIMEOUT_MS = 10_000;

  private ClientConfig() {
  }

  /** {@link #NAMENODE_SELECTION}, parsed. */
  public static SelectionPolicy namenodeSelection(Configuration conf) {
    return SelectionPolicy.parse(conf.get(NAMENODE_SELECTION, NAMENODE_SELECTION_DEFAULT));
  }

  /** {@link #LOCATION_DOMAIN_ID}. */
  public static int locationDomainId(Configuration conf) {
    return conf.getInt(LOCATION_DOMAIN_ID, LOCATION_DOMAIN_ID_DEFAULT);
  }

  /**
   * {@link #NETWORK_LOCATION}, or null when unset; refuses a value that is not a network location (a leading '/',
   * non-empty components).
   */
  public static String networkLocation(Configuration conf) {
    String configured = conf.getTrimmed(NETWORK_LOCATION);
    if (configured == null || configured.isEmpty()) {
      return null;
    }
    if (configured.charAt(0) != '/' || configured.length() == 1 || configured.endsWith("/")
        || configured.contains("//")) {
      throw new IllegalArgumentException(NETWORK_LOCATION + " must be a network location such as /az1/rack1, got '"
          + configured + "'");
    }
    return configured;
  }

  /** {@link #NAMENODE_LIST_REFRESH_MS}. */
  public static long namenodeListRefreshMs(Configuration conf) {
    return conf.getLong(NAMENODE_LIST_REFRESH_MS, NAMENODE_LIST_REFRESH_MS_DEFAULT);
  }

  /** {@link #FAILED_NAMENODE_AVOID_MS}. */
  public static long failedNamenodeAvoidMs(Configuration conf) {
    return conf.getLong(FAILED_NAMENODE_AVOID_MS, FAILED_NAMENODE_AVOID_MS_DEFAULT);
  }

  /** {@link #RANDOM_SEED}, or empty when unset; refuses a value that is not an integer. */
  public static OptionalLong randomSeed(Configuration conf) {
    String configured = conf.getTrimmed(RANDOM_SEED);
    if (configured == null || configured.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(configured));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(RANDOM_SEED + " must be an integer, got '" + configured + "'");
    }
  }
}

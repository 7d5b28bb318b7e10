package io.canopy.metadata.ignite;

import io.canopy.metadata.MetadataConfig;
import io.canopy.metadata.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code canopy.metadata.ignite.*} keys (design 020): where the Ignite 3 cluster's client connectors are, and the
 * distribution zone the tables are made in when a namespace is formatted. Checked when read, each error naming the
 * key, the value and the allowed range.
 */
public final class IgniteSettings {
  public static final String PREFIX = MetadataConfig.PREFIX + "ignite.";
  /** Client addresses of the cluster's nodes, {@code host:port} separated by commas (any subset works). */
  public static final String ADDRESSES = PREFIX + "addresses";
  /** The engine's name, as {@code canopy.metadata.engine} selects it. */
  public static final String ENGINE_NAME = "ignite";
  /** Copies of each partition (Raft replicas) in the tables' zone; only read by format. */
  public static final String REPLICAS = PREFIX + "replicas";
  public static final int REPLICAS_DEFAULT = 1;
  /** Partitions of the tables' zone; only read by format. */
  public static final String PARTITIONS = PREFIX + "partitions";
  static final int PARTITIONS_DEFAULT = 25;
  /** How long the client waits to connect, and for each answer, in milliseconds. */
  public static final String TIMEOUT_MS = PREFIX + "timeout-ms";
  static final long TIMEOUT_MS_DEFAULT = 30_000;
  /**
   * How long Ignite lets one read-write transaction run before it rolls it back, in milliseconds. The longest are the
   * namenode's single-transaction subtree operations (a recursive delete of up to the subtree threshold's inodes);
   * Ignite's own default, 30 s, ended such a delete on three nodes sharing one core. It is also how long a transaction
   * abandoned by its client keeps its locks, and under wait-die every other writer of those rows is refused until
   * then: 60 s, not more.
   */
  public static final String TRANSACTION_TIMEOUT_MS = PREFIX + "transaction-timeout-ms";
  static final long TRANSACTION_TIMEOUT_MS_DEFAULT = 60_000;
  /** The distribution zone of Canopy's tables. */
  public static final String ZONE = PREFIX + "zone";
  static final String ZONE_DEFAULT = "CANOPY";

  private final Map<String, String> settings;

  IgniteSettings(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
  }

  List<String> addresses() throws StoreException {
    String value = settings.get(ADDRESSES);
    if (value == null || value.isBlank()) {
      throw new StoreException(ADDRESSES + " is not set: give the client addresses (host:port, comma-separated) of"
          + " the Ignite cluster's nodes");
    }
    List<String> addresses = new ArrayList<>();
    for (String part : value.split(",")) {
      String address = part.strip();
      int colon = address.lastIndexOf(':');
      if (colon <= 0 || colon == address.length() - 1) {
        throw new StoreException(ADDRESSES + ": '" + address + "' is not host:port");
      }
      intIn(ADDRESSES, address.substring(colon + 1), 1, 65_535);
      addresses.add(address);
    }
    return addresses;
  }

  int replicas() throws StoreException {
    return intIn(REPLICAS, settings.getOrDefault(REPLICAS, String.valueOf(REPLICAS_DEFAULT)), 1, 9);
  }

  int partitions() throws StoreException {
    return intIn(PARTITIONS, settings.getOrDefault(PARTITIONS, String.valueOf(PARTITIONS_DEFAULT)), 1, 65_000);
  }

  long timeoutMs() throws StoreException {
    return intIn(TIMEOUT_MS, settings.getOrDefault(TIMEOUT_MS, String.valueOf(TIMEOUT_MS_DEFAULT)), 100, 3_600_000);
  }

  long transactionTimeoutMs() throws StoreException {
    return intIn(TRANSACTION_TIMEOUT_MS, settings.getOrDefault(TRANSACTION_TIMEOUT_MS,
        String.valueOf(TRANSACTION_TIMEOUT_MS_DEFAULT)), 1_000, 3_600_000);
  }

  String zone() throws StoreException {
    String zone = settings.getOrDefault(ZONE, ZONE_DEFAULT);
    if (!zone.matches("[A-Z][A-Z0-9_]{0,63}")) {
      throw new StoreException(ZONE + ": '" + zone + "' is not an upper-case SQL identifier of at most 64 characters");
    }
    return zone;
  }

  private static int intIn(String key, String value, int min, int max) throws StoreException {
    int parsed;
    try {
      parsed = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new StoreException(key + ": '" + value + "' is not a number");
    }
    if (parsed < min || parsed > max) {
      throw new StoreException(key + ": " + parsed + " is outside " + min + ".." + max);
    }
    return parsed;
  }
}

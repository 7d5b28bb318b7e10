package io.canopy.namenode.topology;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where Canopy clients said they are ({@code canopy.client.network-location}, design 019), by Hadoop RPC client id.
 * A Canopy client declares its location to each namenode it calls; the namenode then uses it for that client's stock
 * calls ({@code getBlockLocations}, {@code addBlock}, {@code getAdditionalDatanode}), whose requests carry no
 * location but the same client id (one per client JVM's RPC client, shared by its ClientProtocol and Canopy calls).
 * A client that declared nothing is placed by its address, as HDFS does. Bounded: beyond {@code limit} clients, the
 * least recently used declaration is forgotten (its client is placed by address until it declares again, which it
 * does every minute).
 */
public final class ClientLocations {
  /** Declarations kept, at most, by default. */
  public static final int DEFAULT_LIMIT = 100_000;

  private final int limit;
  private final LinkedHashMap<String, NetworkLocation> byClient;
  /** Whether any client declared: most clusters have none, and their calls then skip the lock. */
  private volatile boolean any;

  public ClientLocations(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("invariant: client location limit " + limit + " < 1");
    }
    this.limit = limit;
    this.byClient = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, NetworkLocation> eldest) {
        return size() > ClientLocations.this.limit;
      }
    };
  }

  /** Records where the client of RPC client id {@code clientId} is; ignored without a client id. */
  public synchronized void declare(byte[] clientId, NetworkLocation location) {
    if (clientId == null || clientId.length == 0 || location == null) {
      return;
    }
    byClient.put(HexFormat.of().formatHex(clientId), location);
    any = true;
  }

  /** Where the client of {@code clientId} declared it is, or null. */
  public NetworkLocation declared(byte[] clientId) {
    if (!any || clientId == null || clientId.length == 0) {
      return null;
    }
    synchronized (this) {
      return byClient.get(HexFormat.of().formatHex(clientId));
    }
  }

  /** Declarations kept. */
  public synchronized int size() {
    return byClient.size();
  }
}

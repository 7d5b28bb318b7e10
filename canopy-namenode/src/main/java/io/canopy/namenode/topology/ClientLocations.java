package io.canopy.namenode.topology;

import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where Canopy clients said they are ({@code canopy.client.network-location}, design 019), by Hadoop RPC client id.
 * A Canopy client declares its location to each namenode it calls, and again every minute; the namenode uses it for
 * that client's stock calls ({@code getBlockLocations}, {@code addBlock}), whose requests carry no location but the
 * same client id (one per client JVM's RPC client, shared by its ClientProtocol and Canopy calls). A client that
 * declared nothing is placed by its address, as HDFS does.
 *
 * <p>Lock-free on the call path. Bounded: beyond {@code limit} clients, declarations not renewed for
 * {@link #FORGET_AFTER_MS} (their clients are gone) are dropped, at most once per {@link #FORGET_AFTER_MS}; while
 * the active clients alone exceed the limit, a new client is not remembered (it is placed by its address).
 */
public final class ClientLocations {
  private static final Logger LOG = LoggerFactory.getLogger(ClientLocations.class);
  /** Declarations kept, at most, by default. */
  public static final int DEFAULT_LIMIT = 100_000;
  /** A declaration not renewed for this long (two client renewal periods) may be dropped. */
  public static final long FORGET_AFTER_MS = 120_000;
  /** A declaration younger than this is not rewritten by the same declaration again (opens repeat it). */
  static final long RENEW_AFTER_MS = 10_000;

  private record Declared(NetworkLocation location, long atMs) {
  }

  private final int limit;
  private final LongSupplier clockMs;
  private final Map<String, Declared> byClient = new ConcurrentHashMap<>();
  /** When stale declarations were last dropped (guarded by this). */
  private long lastSweepMs = Long.MIN_VALUE;
  /** Whether the refusal of a new client for want of room was logged since the last sweep (guarded by this). */
  private boolean fullLogged;

  public ClientLocations(int limit, LongSupplier clockMs) {
    if (limit < 1) {
      throw new IllegalArgumentException("invariant: client location limit " + limit + " < 1");
    }
    this.limit = limit;
    this.clockMs = clockMs;
  }

  /** Records where the client of RPC client id {@code clientId} is; ignored without a client id. */
  public void declare(byte[] clientId, NetworkLocation location) {
    if (clientId == null || clientId.length == 0 || location == null) {
      return;
    }
    String key = HexFormat.of().formatHex(clientId);
    long now = clockMs.getAsLong();
    Declared known = byClient.get(key);
    if (known != null && known.location().equals(location) && now - known.atMs() < RENEW_AFTER_MS) {
      return;
    }
    if (known == null && byClient.size() >= limit && !makeRoom(now)) {
      return;
    }
    byClient.put(key, new Declared(location, now));
  }

  /** Where the client of {@code clientId} declared it is, or null. */
  public NetworkLocation declared(byte[] clientId) {
    if (byClient.isEmpty() || clientId == null || clientId.length == 0) {
      return null;
    }
    Declared declared = byClient.get(HexFormat.of().formatHex(clientId));
    return declared == null ? null : declared.location();
  }

  /** Declarations kept. */
  public int size() {
    return byClient.size();
  }

  /** Drops the stale declarations (at most once per {@link #FORGET_AFTER_MS}); true when there is room now. */
  private synchronized boolean makeRoom(long now) {
    if (byClient.size() < limit) {
      return true;
    }
    if (lastSweepMs == Long.MIN_VALUE || now - lastSweepMs >= FORGET_AFTER_MS) {
      lastSweepMs = now;
      fullLogged = false;
      byClient.values().removeIf(declared -> now - declared.atMs() >= FORGET_AFTER_MS);
    }
    boolean room = byClient.size() < limit;
    if (!room && !fullLogged) {
      fullLogged = true;
      LOG.warn("{} clients declared their network location within {} ms, the most this namenode keeps: further "
          + "clients are placed by their address until older declarations lapse", limit, FORGET_AFTER_MS);
    }
    return room;
  }
}

package io.canopy.client;

import java.io.IOException;
import org.apache.hadoop.io.retry.Idempotent;

/**
 * Canopy's own client calls (design 016), as the client uses them: {@link CanopyClientCalls} sends them to one
 * namenode, {@link CanopyClientProxies} to a nameservice with failover. Every call is idempotent: a retry after a
 * failover finds the first attempt's result (a repeated completeSmall answers stored).
 */
public interface CanopyClientProtocol {
  /** Files up to this many bytes may be stored with their metadata; 0 when the namenode stores none. */
  @Idempotent
  int smallFileMaxBytes() throws IOException;

  /**
   * Closes {@code src} (inode {@code fileId}, leased to {@code clientName}) with {@code data} appended to the
   * {@code appendAt} bytes it held when its writer opened it, stored in the database; false when the namenode does
   * not store them (the file would pass its threshold): nothing changed, the file is still open.
   */
  @Idempotent
  boolean completeSmall(String src, String clientName, long fileId, long appendAt, byte[] data) throws IOException;

  /** The located blocks of {@code src} as getBlockLocations answers them, and its bytes when in the database. */
  @Idempotent
  SmallFileRead readSmallFile(String src, long offset, long length) throws IOException;

  /**
   * Tells the namenode where this client is ({@code /zone/rack}): it remembers the location by the RPC client id, which
   * this client's stock calls share, to order replicas for its reads and place its writes' first replicas.
   */
  @Idempotent
  void declareLocation(String networkLocation) throws IOException;
}

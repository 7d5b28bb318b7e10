package io.canopy.namenode.smallfiles;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.StripedBlockInfo;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.hdfs.protocol.datatransfer.Op;
import org.apache.hadoop.hdfs.protocol.datatransfer.Receiver;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.hdfs.shortcircuit.ShortCircuitShm.SlotId;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.tracing.Tracer;
import org.apache.hadoop.util.DataChecksum;

/**
 * One client connection of the small-file endpoint: Hadoop's {@link Receiver} reads the version, the op and its
 * request; READ_BLOCK and BLOCK_CHECKSUM are answered from the database, every other op refused. After a read the
 * client has read whole, the connection waits for its next request (clients keep data-transfer connections in a
 * cache), but lets its handler go as soon as another connection waits for one.
 */
final class SmallBlockConnection extends Receiver {
  /** Receiver continues a client's trace span with this; Canopy configures no span receivers. */
  private static final Tracer TRACER = new Tracer.Builder("SmallBlockReadServer").build();
  /** How often an idle connection checks whether to let its handler go. */
  static final int IDLE_CHECK_MS = 100;
  /** Requests are a few hundred bytes; replies are buffered up to a packet. */
  private static final int REQUEST_BUFFER_BYTES = 512;
  private static final int REPLY_BUFFER_BYTES = 64 * 1024 + 1024;
  /** The bytes before the op code: the data transfer version. */
  private static final int VERSION_BYTES = 2;
  /** Ops whose requests Receiver can read; others cannot be skipped and end the connection after the refusal. */
  private static final Set<Op> READABLE = EnumSet.complementOf(EnumSet.of(Op.READ_METADATA, Op.CUSTOM));

  private final Peer peer;
  private final SmallBlockReadSettings settings;
  private final BooleanSupplier letGo;
  private final SmallBlockReadServer.TokenCheck tokens;
  private final BlockLookup lookup;
  private final BufferedInputStream requests;
  private final DataOutputStream replies;
  /** Whether the op just served leaves the connection able to take another request. */
  private boolean reusable;

  /** {@code letGo} tells an idle connection to close: the endpoint is closing, or a connection waits. */
  /** Sets up a new connection's streams (a SASL handshake, when data transfer is protected). */
  @FunctionalInterface
  interface StreamOpener {
    IOStreamPair open(Peer peer) throws IOException;
  }

  SmallBlockConnection(Peer peer, SmallBlockSource source, SmallBlockReadSettings settings, BooleanSupplier letGo,
      SmallBlockReadServer.TokenCheck tokens, StreamOpener opener) throws IOException {
    super(TRACER);
    this.tokens = tokens;
    this.peer = peer;
    this.settings = settings;
    this.letGo = letGo;
    this.lookup = new BlockLookup(source);
    peer.setReadTimeout(settings.timeoutMs());
    peer.setWriteTimeout(settings.timeoutMs());
    IOStreamPair streams = opener.open(peer);
    requests = new BufferedInputStream(streams.in, REQUEST_BUFFER_BYTES);
    replies = new DataOutputStream(new BufferedOutputStream(streams.out, REPLY_BUFFER_BYTES));
    initialize(new DataInputStream(requests));
  }

  /** Serves requests until the client closes, an op ends the connection, or it idles past the keepalive. */
  void serve() throws IOException {
    boolean first = true;
    do {
      if (!first && !awaitNextRequest()) {
        return;
      }
      first = false;
      reusable = false;
      requests.mark(VERSION_BYTES + 1);
      Op op = readOp();
      if (op == null || !READABLE.contains(op)) {
        requests.reset();
        requests.skipNBytes(VERSION_BYTES);
        refuse(op == null ? "op code " + requests.read() : op.name());
        return;
      }
      processOp(op);
    } while (reusable);
  }

  /**
   * Waits for the first byte of the next request, up to the keepalive, in short slices so that it can let go early;
   * false when the client closed, the keepalive ran out or another connection needs the handler.
   */
  private boolean awaitNextRequest() throws IOException {
    int slice = Math.min(settings.keepaliveMs(), IDLE_CHECK_MS);
    for (int waited = 0; waited < settings.keepaliveMs() && !letGo.getAsBoolean(); waited += slice) {
      peer.setReadTimeout(slice);
      requests.mark(1);
      try {
        if (requests.read() < 0) {
          return false;
        }
        requests.reset();
        peer.setReadTimeout(settings.timeoutMs());
        return true;
      } catch (SocketTimeoutException idle) {
        // No byte was consumed: look at letGo, then wait on.
      }
    }
    return false;
  }

  @Override
  public void readBlock(ExtendedBlock block, Token<BlockTokenIdentifier> blockToken, String clientName,
      long blockOffset, long length, boolean sendChecksum, CachingStrategy cachingStrategy) throws IOException {
    if (refusedToken(Op.READ_BLOCK, block, blockToken)) {
      return;
    }
    reusable = new BlockRangeSender(lookup, replies, in).send(block, blockOffset, length, sendChecksum);
  }

  @Override
  public void blockChecksum(ExtendedBlock block, Token<BlockTokenIdentifier> blockToken,
      BlockChecksumOptions blockChecksumOptions) throws IOException {
    // A datanode closes the connection after a checksum; clients do not reuse it.
    if (refusedToken(Op.BLOCK_CHECKSUM, block, blockToken)) {
      return;
    }
    new BlockChecksumAnswer(lookup, replies).answer(block, blockChecksumOptions);
  }

  /**
   * With block access tokens on, refuses a request whose token does not grant reading {@code block}, as a datanode
   * does (status ERROR_ACCESS_TOKEN, then the connection ends); true when refused.
   */
  private boolean refusedToken(Op op, ExtendedBlock block, Token<BlockTokenIdentifier> token) throws IOException {
    try {
      tokens.checkRead(token, block);
      return false;
    } catch (SecretManager.InvalidToken e) {
      Replies.status(replies, Status.ERROR_ACCESS_TOKEN, "Block token verification failed: op=" + op + ", block="
          + block + ": " + e.getMessage());
      return true;
    }
  }

  private void refuse(String op) throws IOException {
    Replies.status(replies, Status.ERROR_UNSUPPORTED, "Canopy's small-file endpoint serves reads only; writes go "
        + "to datanodes (asked: " + op + "; served: " + Op.READ_BLOCK + ", " + Op.BLOCK_CHECKSUM + ")");
  }

  @Override
  public void writeBlock(ExtendedBlock block, StorageType storageType, Token<BlockTokenIdentifier> blockToken,
      String clientName, DatanodeInfo[] targets, StorageType[] targetStorageTypes, DatanodeInfo source,
      BlockConstructionStage stage, int pipelineSize, long minBytesRcvd, long maxBytesRcvd,
      long latestGenerationStamp, DataChecksum requestedChecksum, CachingStrategy cachingStrategy,
      boolean allowLazyPersist, boolean pinning, boolean[] targetPinnings, String storageId,
      String[] targetStorageIds) throws IOException {
    refuse(Op.WRITE_BLOCK.name());
  }

  @Override
  public void transferBlock(ExtendedBlock block, Token<BlockTokenIdentifier> blockToken, String clientName,
      DatanodeInfo[] targets, StorageType[] targetStorageTypes, String[] targetStorageIds) throws IOException {
    refuse(Op.TRANSFER_BLOCK.name());
  }

  @Override
  public void requestShortCircuitFds(ExtendedBlock block, Token<BlockTokenIdentifier> blockToken, SlotId slotId,
      int maxVersion, boolean supportsReceiptVerification) throws IOException {
    refuse(Op.REQUEST_SHORT_CIRCUIT_FDS.name());
  }

  @Override
  public void releaseShortCircuitFds(SlotId slotId) throws IOException {
    refuse(Op.RELEASE_SHORT_CIRCUIT_FDS.name());
  }

  @Override
  public void requestShortCircuitShm(String clientName) throws IOException {
    refuse(Op.REQUEST_SHORT_CIRCUIT_SHM.name());
  }

  @Override
  public void replaceBlock(ExtendedBlock block, StorageType storageType, Token<BlockTokenIdentifier> blockToken,
      String delHint, DatanodeInfo source, String storageId) throws IOException {
    refuse(Op.REPLACE_BLOCK.name());
  }

  @Override
  public void copyBlock(ExtendedBlock block, Token<BlockTokenIdentifier> blockToken) throws IOException {
    refuse(Op.COPY_BLOCK.name());
  }

  @Override
  public void blockGroupChecksum(StripedBlockInfo stripedBlockInfo, Token<BlockTokenIdentifier> blockToken,
      long requestedNumBytes, BlockChecksumOptions blockChecksumOptions) throws IOException {
    refuse(Op.BLOCK_GROUP_CHECKSUM.name());
  }
}

package io.canopy.namenode.smallfiles;

import io.canopy.namenode.SmallFilesConfig;
import java.io.Closeable;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.net.TcpPeerServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's data-transfer endpoint for database-resident blocks (design 016, decision 4): stock HDFS clients,
 * told by getBlockLocations that a small file's block is on {@link SmallFilesDatanode}, connect here and read it with
 * the data transfer protocol as from a datanode. Stock datanodes cannot read PostgreSQL, so the namenode serves them.
 *
 * <p>Bounded: {@code handlers} threads serve one connection each; {@code queuedConnections} accepted connections wait
 * for one; a connection beyond them is closed at once. Listens with Hadoop's {@link TcpPeerServer}, as a datanode.
 */
public final class SmallBlockReadServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SmallBlockReadServer.class);
  /** Start of the endpoint's thread names, followed by its port. */
  public static final String THREAD_PREFIX = "smallfiles-read-";
  /** How long close() waits for the acceptor and the handlers to end once their sockets are closed. */
  public static final long CLOSE_WAIT_MS = 10_000;
  /** Pause after an accept that failed while open (e.g. out of file descriptors), so the loop does not spin. */
  private static final long ACCEPT_FAILURE_PAUSE_MS = 100;

  private final SmallBlockSource source;
  private final SmallBlockReadSettings settings;
  private final TcpPeerServer listener;
  private final InetSocketAddress address;
  private final ThreadPoolExecutor handlers;
  /**
   * The handlers' threads: the pool counts as terminated while its last thread is still returning, so close joins
   * them too (a closed endpoint leaves no thread behind).
   */
  private final Queue<Thread> handlerThreads = new ConcurrentLinkedQueue<>();
  private final Thread acceptor;
  /** Connections handed to a handler or waiting for one: close() closes them. */
  private final Set<Peer> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicBoolean closing = new AtomicBoolean();
  private final TokenCheck tokens;
  private final ConnectionStreams streams;

  /** Checks a request's block access token (HDFS's {@code dfs.block.access.token.enable}); accepts all when off. */
  @FunctionalInterface
  public interface TokenCheck {
    TokenCheck NONE = (token, block) -> { };

    void checkRead(org.apache.hadoop.security.token.Token<org.apache.hadoop.hdfs.security.token.block
        .BlockTokenIdentifier> token, org.apache.hadoop.hdfs.protocol.ExtendedBlock block)
        throws org.apache.hadoop.security.token.SecretManager.InvalidToken;
  }

  /**
   * How a connection's streams are set up before its first request: as they are, or after the SASL handshake of
   * HDFS's protected data transfer ({@code dfs.encrypt.data.transfer}, {@code dfs.data.transfer.protection}) that a
   * stock client starts with every datanode, this endpoint included ({@link DataTransferProtection}).
   */
  @FunctionalInterface
  public interface ConnectionStreams {
    ConnectionStreams PLAIN = (peer, port) -> new IOStreamPair(peer.getInputStream(), peer.getOutputStream());

    /** The streams of {@code peer}, which connected to this endpoint's {@code port}. */
    IOStreamPair open(Peer peer, int port) throws IOException;
  }

  private SmallBlockReadServer(SmallBlockSource source, SmallBlockReadSettings settings, TcpPeerServer listener,
      TokenCheck tokens, ConnectionStreams streams) {
    this.tokens = tokens;
    this.streams = streams;
    this.source = source;
    this.settings = settings;
    this.listener = listener;
    this.address = listener.getStreamingAddr();
    String name = THREAD_PREFIX + address.getPort();
    handlers = new ThreadPoolExecutor(settings.handlers(), settings.handlers(), 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(settings.queuedConnections()), daemons(name + "-handler-", handlerThreads),
        new ThreadPoolExecutor.AbortPolicy());
    acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
  }

  /** Listens on {@code host} and the settings' port (0: any free one, see {@link #address()}) and serves. */
  public static SmallBlockReadServer start(String host, SmallBlockSource source, SmallBlockReadSettings settings)
      throws IOException {
    return start(host, source, settings, TokenCheck.NONE);
  }

  /** As {@link #start(String, SmallBlockSource, SmallBlockReadSettings)}, checking each read's token. */
  public static SmallBlockReadServer start(String host, SmallBlockSource source, SmallBlockReadSettings settings,
      TokenCheck tokens) throws IOException {
    return start(host, source, settings, tokens, ConnectionStreams.PLAIN);
  }

  /** As {@link #start(String, SmallBlockSource, SmallBlockReadSettings, TokenCheck)}, with protected streams. */
  public static SmallBlockReadServer start(String host, SmallBlockSource source, SmallBlockReadSettings settings,
      TokenCheck tokens, ConnectionStreams streams) throws IOException {
    TcpPeerServer listener;
    try {
      // The write timeout makes the listener's sockets channels, whose writes then time out too.
      listener = new TcpPeerServer(settings.timeoutMs(), new InetSocketAddress(host, settings.port()),
          settings.queuedConnections());
    } catch (IOException e) {
      BindException refused = new BindException("small-file read endpoint cannot listen on " + host + ":"
          + settings.port() + " (" + SmallFilesConfig.READ_PORT + "): " + e.getMessage());
      refused.initCause(e);
      throw refused;
    }
    SmallBlockReadServer server = new SmallBlockReadServer(source, settings, listener, tokens, streams);
    server.acceptor.start();
    LOG.info("small-file read endpoint listening on {} ({} handlers, {} connections may wait)", server.address,
        settings.handlers(), settings.queuedConnections());
    return server;
  }

  /** Where the endpoint listens: the port it bound, to advertise through {@link SmallFilesDatanode#at}. */
  public InetSocketAddress address() {
    return address;
  }

  /** Connections handed to a handler or queued for one since the start. */
  public long acceptedConnections() {
    return accepted.get();
  }

  /** Connections closed at once because every handler was busy and the queue full. */
  public long refusedConnections() {
    return refused.get();
  }

  private void acceptLoop() {
    while (!closing.get()) {
      Peer peer;
      try {
        peer = listener.accept();
      } catch (IOException e) {
        if (!closing.get()) {
          LOG.warn("small-file read endpoint {}: accept failed, trying again in {} ms", address,
              ACCEPT_FAILURE_PAUSE_MS, e);
          pauseAfterAcceptFailure();
        }
        continue;
      }
      hand(peer);
    }
  }

  private void hand(Peer peer) {
    open.add(peer);
    try {
      handlers.execute(() -> serve(peer));
      accepted.incrementAndGet();
    } catch (RejectedExecutionException full) {
      refused.incrementAndGet();
      LOG.debug("small-file read endpoint {}: {} handlers busy and {} connections waiting, closed {}", address,
          settings.handlers(), settings.queuedConnections(), peer.getRemoteAddressString());
      open.remove(peer);
      closeQuietly(peer);
    }
  }

  private void serve(Peer peer) {
    try {
      if (!closing.get()) {
        new SmallBlockConnection(peer, source, settings, this::idleConnectionsLetGo, tokens,
            (connected) -> streams.open(connected, address.getPort())).serve();
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("small-file read endpoint {}: connection from {} ended: {}", address, peer.getRemoteAddressString(),
          e.toString());
    } finally {
      open.remove(peer);
      closeQuietly(peer);
    }
  }

  /** An idle kept connection closes when the endpoint closes or another connection waits for a handler. */
  private boolean idleConnectionsLetGo() {
    return closing.get() || !handlers.getQueue().isEmpty();
  }

  /** Stops accepting, closes every connection and waits up to {@link #CLOSE_WAIT_MS} for the threads to end. */
  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    closeQuietly(listener);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
    try {
      acceptor.join(CLOSE_WAIT_MS);
      handlers.shutdownNow();
      open.forEach(SmallBlockReadServer::closeQuietly);
      boolean terminated = handlers.awaitTermination(Math.max(0, deadline - System.nanoTime()),
          TimeUnit.NANOSECONDS);
      for (Thread handler : handlerThreads) {
        handler.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        terminated &= !handler.isAlive();
      }
      if (!terminated || acceptor.isAlive()) {
        LOG.warn("small-file read endpoint {}: threads still running {} ms after close", address, CLOSE_WAIT_MS);
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    LOG.info("small-file read endpoint {} closed", address);
  }

  private static void pauseAfterAcceptFailure() {
    try {
      Thread.sleep(ACCEPT_FAILURE_PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException e) {
      LOG.debug("closing {} failed: {}", closeable, e.toString());
    }
  }

  /** Daemon threads named {@code prefix} + a number, each added to {@code created} (so close can join them). */
  private static ThreadFactory daemons(String prefix, Queue<Thread> created) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      created.add(thread);
      return thread;
    };
  }
}

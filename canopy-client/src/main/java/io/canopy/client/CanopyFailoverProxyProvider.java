package io.canopy.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.ha.AbstractNNFailoverProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canopy's namenode selection for the stock HDFS client (docs/references.md [Design] s.9). Configure it as the
 * nameservice's provider ({@code dfs.client.failover.proxy.provider.NAME}, see {@link Nameservice#configure}); Hadoop
 * creates it by reflection through the {@code (Configuration, URI, Class, HAProxyFactory)} constructor and wraps it in
 * its {@code RetryInvocationHandler} with the failover-on-network-exception retry policy.
 *
 * <p><b>One dispatching proxy.</b> Every Canopy namenode serves every call, so the provider does not hand the retry
 * handler a namenode's proxy (which the handler would keep until a failover) but a {@link NamenodeDispatcher}
 * that picks the namenode on each invocation: {@code random} and {@code round-robin} pick anew per call,
 * {@code sticky} and {@code random-sticky} return their current namenode until it fails. The alternative, calling
 * {@code performFailover} to rotate, would need a failure per rotation, and {@code RetryInvocationHandler}
 * deliberately collapses concurrent failovers into one. The dispatcher is a Hadoop {@code RpcInvocationHandler},
 * so the retry handler treats it as an RPC proxy and gives each call its call id and retry count; the dispatcher's
 * invocation makes exactly one RPC on the chosen namenode, which carries them.
 *
 * <p><b>Failover.</b> A call failing at the connection level (refused, reset, EOF, timeout, standby) marks its
 * namenode failed, so it is avoided for {@value ClientConfig#FAILED_NAMENODE_AVOID_MS} while others are available;
 * the retry policy then fails over, and the retry, with the same client id and call id and a higher retry count,
 * goes to another namenode. The namenodes share their retry cache in the database, so a create, delete or rename
 * that did run on the dead namenode answers its first result instead of running twice; idempotent calls simply run
 * again. Calls that are neither are not retried by Hadoop after an ambiguous failure, as with HDFS.
 *
 * <p><b>Namenode list.</b> The configured addresses are the seeds. While calls are made, once per
 * {@value ClientConfig#NAMENODE_LIST_REFRESH_MS} (the first call included), a background refresh asks a namenode for
 * the live list ({@link NamenodeListClient}) and the selector uses it instead; the seeds come back when every
 * learned namenode has failed. With {@value ClientConfig#LOCATION_DOMAIN_ID} set, learned namenodes of that domain
 * are preferred while one of them is live (the seeds carry no domain). Addresses, configured or learned, are
 * compared in {@code ip:port} form, resolved when they enter the provider, so a namenode configured by host name and
 * advertised by address (or the other way round) is one namenode.
 */
public class CanopyFailoverProxyProvider<T> extends AbstractNNFailoverProxyProvider<T> {
  private static final Logger LOG = LoggerFactory.getLogger(CanopyFailoverProxyProvider.class);

  private final String nameservice;
  private final NamenodeSelector selector;
  private final NamenodeListRefresher refresher;
  private final ExecutorService ownExecutor;
  private final T dispatcher;
  private final Map<String, NNProxyInfo<T>> proxies = new HashMap<>();
  /** {@link ClientConfig#NETWORK_LOCATION}, declared to each namenode called; null when unset. */
  private final String networkLocation;
  private final LongSupplier clock;
  private final Executor background;
  /** When the location was last declared to each namenode address (guarded by this). */
  private final Map<String, Long> declaredAt = new HashMap<>();
  private boolean closed;

  /** The constructor Hadoop's {@code NameNodeProxiesClient} calls. */
  public CanopyFailoverProxyProvider(Configuration conf, URI uri, Class<T> xface, HAProxyFactory<T> factory) {
    this(conf, uri, xface, factory, Time::monotonicNow, null, null);
  }

  /**
   * @param clock milliseconds, for the refresh interval and the avoid interval
   * @param source the namenode-list source; null: {@link NamenodeListClient}
   * @param refreshExecutor runs list refreshes; null: a daemon thread of this provider's own
   */
  CanopyFailoverProxyProvider(Configuration conf, URI uri, Class<T> xface, HAProxyFactory<T> factory,
      LongSupplier clock, NamenodeListSource source, Executor refreshExecutor) {
    super(conf, uri, xface, factory);
    this.nameservice = uri.getHost();
    List<String> seeds = Nameservice.rpcAddresses(this.conf, nameservice).stream()
        .map(CanopyFailoverProxyProvider::canonical).toList();
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("Nameservice " + nameservice + " lists no namenode: set dfs.ha.namenodes."
          + nameservice + " and dfs.namenode.rpc-address." + nameservice + ".ID (Nameservice.configure does)");
    }
    SelectionPolicy policy = ClientConfig.namenodeSelection(this.conf);
    long seed = ClientConfig.randomSeed(this.conf).orElseGet(() -> ThreadLocalRandom.current().nextLong());
    LOG.debug("Canopy namenode selection for {}: {} over {}, random seed {}", nameservice, policy, seeds, seed);
    this.selector = new NamenodeSelector(policy, ClientConfig.locationDomainId(this.conf),
        ClientConfig.failedNamenodeAvoidMs(this.conf), clock, new Random(seed), seeds);
    this.ownExecutor = refreshExecutor == null ? refreshThread(nameservice) : null;
    this.networkLocation = ClientConfig.networkLocation(this.conf);
    this.clock = clock;
    this.background = refreshExecutor != null ? refreshExecutor : ownExecutor;
    this.refresher = new NamenodeListRefresher(nameservice, selector,
        canonicalAddresses(source != null ? source
            : new NamenodeListClient(this.conf, ugi, ClientConfig.NAMENODE_LIST_RPC_TIMEOUT_MS)),
        clock, ClientConfig.namenodeListRefreshMs(this.conf),
        refreshExecutor != null ? refreshExecutor : ownExecutor);
    this.dispatcher = new NamenodeDispatcher<>(nameservice, selector, this::proxyFor, refresher::maybeRefresh)
        .newProxy(xface);
  }

  /**
   * {@code address} as {@code ip:port} when its host resolves, else as given: a namenode is one namenode whether the
   * configuration names it by host name and its membership descriptor by address, or the other way round.
   */
  static String canonical(String address) {
    InetSocketAddress socket = NetUtils.createSocketAddr(address);
    return socket.isUnresolved() ? address : socket.getAddress().getHostAddress() + ":" + socket.getPort();
  }

  /** {@code source}, with the namenodes' addresses in {@link #canonical} form. */
  private static NamenodeListSource canonicalAddresses(NamenodeListSource source) {
    return address -> source.fetch(address).stream()
        .map(entry -> new NamenodeList.Entry(entry.id(), canonical(entry.rpcAddress()), entry.locationDomainId(),
            entry.leader()))
        .toList();
  }

  private static ExecutorService refreshThread(String nameservice) {
    ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        runnable -> {
          Thread thread = new Thread(runnable, "canopy-namenode-list-" + nameservice);
          thread.setDaemon(true);
          return thread;
        });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  @Override
  public ProxyInfo<T> getProxy() {
    return new ProxyInfo<>(dispatcher, "Canopy nameservice " + nameservice) {
      @Override
      public String getString(String methodName) {
        return methodName + " on " + dispatcher;
      }

      @Override
      public String toString() {
        return dispatcher.toString();
      }
    };
  }

  /**
   * The retry policy fails a call over after a connection-level failure, which already marked that namenode
   * failed: a sticky policy moves to another namenode; per-call policies already avoid it.
   */
  @Override
  public void performFailover(T currentProxy) {
    String from = selector.current();
    selector.failover();
    String to = selector.current();
    if (from != null && !from.equals(to)) {
      LOG.info("Failing over from namenode {} to {} in {} ({})", from, to, nameservice, selector.policy());
    }
  }

  /** The RPC proxy of the namenode at {@code address}, created on first use and kept until {@link #close}. */
  private synchronized T proxyFor(String address) {
    if (closed) {
      throw new IllegalStateException("The namenode proxies of " + nameservice + " are closed");
    }
    NNProxyInfo<T> info = proxies.computeIfAbsent(address, a -> new NNProxyInfo<>(NetUtils.createSocketAddr(a)));
    T proxy = createProxyIfNeeded(info).proxy;
    maybeDeclareLocation(address, info.getAddress());
    return proxy;
  }

  /**
   * With {@link ClientConfig#NETWORK_LOCATION} set, tells a namenode where this client is, in the background, when
   * first called and again every {@value ClientConfig#DECLARE_LOCATION_AGAIN_MS} ms (a restarted namenode forgot):
   * the namenode keys it by the RPC client id that this JVM's stock calls share, so their getBlockLocations,
   * addBlock and getAdditionalDatanode, which carry no location, get this client's zone (design 019). A failure only
   * leaves the namenode placing this client by its address, as HDFS does.
   */
  private void maybeDeclareLocation(String address, InetSocketAddress socket) {
    if (networkLocation == null) {
      return;
    }
    long now = clock.getAsLong();
    Long last = declaredAt.get(address);
    if (last != null && now - last < ClientConfig.DECLARE_LOCATION_AGAIN_MS) {
      return;
    }
    declaredAt.put(address, now);
    try {
      background.execute(() -> {
        try (CanopyClientCalls calls = new CanopyClientCalls(conf, socket, ugi,
            ClientConfig.NAMENODE_LIST_RPC_TIMEOUT_MS)) {
          calls.declareLocation(networkLocation);
        } catch (IOException | RuntimeException e) {
          LOG.debug("Could not declare network location {} to namenode {}: it places this client by its address",
              networkLocation, address, e);
        }
      });
    } catch (RejectedExecutionException e) {
      LOG.debug("Network location {} not declared to namenode {}: the provider is closing", networkLocation,
          address);
    }
  }

  /** Refreshes the namenode list now, on the calling thread; true when a namenode answered. */
  boolean refreshNamenodeList() {
    return refresher.refresh();
  }

  NamenodeSelector selector() {
    return selector;
  }

  @Override
  public boolean useLogicalURI() {
    return true;
  }

  @Override
  public void close() throws IOException {
    List<NNProxyInfo<T>> toClose;
    synchronized (this) {
      closed = true;
      toClose = new ArrayList<>(proxies.values());
      proxies.clear();
    }
    if (ownExecutor != null) {
      ownExecutor.shutdownNow();
    }
    for (NNProxyInfo<T> info : toClose) {
      if (info.proxy instanceof Closeable closeable) {
        closeable.close();
      } else if (info.proxy != null) {
        RPC.stopProxy(info.proxy);
      }
    }
  }
}

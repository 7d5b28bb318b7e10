package io.canopy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.io.retry.AtMostOnce;
import org.apache.hadoop.io.retry.Idempotent;
import org.apache.hadoop.io.retry.RetryPolicies;
import org.apache.hadoop.io.retry.RetryProxy;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The provider against fake namenode proxies: no RPC, no cluster; an injected clock and a direct executor. */
@Timeout(60)
class CanopyFailoverProxyProviderTest {
  private static final long SEED = 7;
  private static final URI NAMESERVICE = URI.create("hdfs://canopy");
  private static final List<String> SEEDS = List.of("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003");

  /** What a fake namenode serves. */
  interface Namespace {
    @Idempotent
    String whoAmI() throws IOException;

    @AtMostOnce
    String create(String path) throws IOException;
  }

  /** One RPC as a fake namenode saw it: where, with which call id and retry count. */
  record Attempt(String address, int callId, int retryCount) {
  }

  /** Fake namenodes by address: they answer their address, record each attempt, and refuse connections when down. */
  static final class FakeNamenodes implements HAProxyFactory<Namespace> {
    final Set<String> down = ConcurrentHashMap.newKeySet();
    final List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
    final Set<String> closed = ConcurrentHashMap.newKeySet();

    @Override
    public Namespace createProxy(Configuration conf, InetSocketAddress address, Class<Namespace> xface,
        UserGroupInformation ugi, boolean withRetries, AtomicBoolean fallbackToSimpleAuth) {
      return new FakeProxy(this, address.getHostString() + ":" + address.getPort());
    }

    @Override
    public Namespace createProxy(Configuration conf, InetSocketAddress address, Class<Namespace> xface,
        UserGroupInformation ugi, boolean withRetries) {
      return createProxy(conf, address, xface, ugi, withRetries, null);
    }

    List<String> addresses() {
      synchronized (attempts) {
        return attempts.stream().map(Attempt::address).toList();
      }
    }
  }

  static final class FakeProxy implements Namespace, Closeable {
    private final FakeNamenodes namenodes;
    private final String address;

    FakeProxy(FakeNamenodes namenodes, String address) {
      this.namenodes = namenodes;
      this.address = address;
    }

    @Override
    public String whoAmI() throws IOException {
      // Like Hadoop's IPC client: take the call id and retry count the retry handler set for this thread.
      namenodes.attempts.add(new Attempt(address, Client.getCallId(), Client.getRetryCount()));
      Client.setCallIdAndRetryCountUnprotected(null, 0, null);
      if (namenodes.down.contains(address)) {
        throw new ConnectException("Call to " + address + " failed on connection exception: Connection refused");
      }
      return address;
    }

    @Override
    public String create(String path) throws IOException {
      whoAmI();
      if (path.startsWith("/bad")) {
        throw new RemoteException("java.io.FileNotFoundException", "no parent for " + path);
      }
      return address;
    }

    @Override
    public void close() {
      namenodes.closed.add(address);
    }
  }

  /** A namenode-list source answering a fixed list, or failing for namenodes listed as down. */
  static final class FakeListSource implements NamenodeListSource {
    volatile List<NamenodeList.Entry> answer = List.of();
    final Set<String> down = ConcurrentHashMap.newKeySet();
    final List<String> asked = Collections.synchronizedList(new ArrayList<>());

    @Override
    public List<NamenodeList.Entry> fetch(String address) throws IOException {
      asked.add(address);
      if (down.contains(address)) {
        throw new ConnectException("Connection refused: " + address);
      }
      return answer;
    }
  }

  private final FakeNamenodes namenodes = new FakeNamenodes();
  private final FakeListSource listSource = new FakeListSource();
  private final AtomicLong clock = new AtomicLong(5_000_000);

  private Configuration conf(String policy) {
    Configuration conf = new Configuration(false);
    Nameservice.configure(conf, "canopy", SEEDS, CanopyFailoverProxyProvider.class.getName());
    conf.set(ClientConfig.NAMENODE_SELECTION, policy);
    conf.setLong(ClientConfig.RANDOM_SEED, SEED);
    return conf;
  }

  private CanopyFailoverProxyProvider<Namespace> provider(Configuration conf) {
    return new CanopyFailoverProxyProvider<>(conf, NAMESERVICE, Namespace.class, namenodes, clock::get, listSource,
        Runnable::run);
  }

  /** The provider behind Hadoop's retry handler, as NameNodeProxiesClient.createHAProxy builds it (no sleeps). */
  private static Namespace withRetries(CanopyFailoverProxyProvider<Namespace> provider) {
    return (Namespace) RetryProxy.create(Namespace.class, provider,
        RetryPolicies.failoverOnNetworkException(RetryPolicies.TRY_ONCE_THEN_FAIL, 15, 10, 0, 0));
  }

  @Test
  void roundRobinSendsEachCallToTheNextNamenode() throws IOException {
    Configuration conf = conf("round-robin");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    Namespace namespace = withRetries(provider(conf));
    List<String> answers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      answers.add(namespace.whoAmI());
    }
    assertEquals(List.of(SEEDS.get(0), SEEDS.get(1), SEEDS.get(2), SEEDS.get(0), SEEDS.get(1), SEEDS.get(2)),
        answers);
    assertEquals(List.of(), listSource.asked, "refresh-ms 0: the configured list only");
  }

  @Test
  void aRetryAfterFailoverReachesAnotherNamenodeWithTheSameCallIdAndAHigherRetryCount() throws IOException {
    Configuration conf = conf("random-sticky");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    CanopyFailoverProxyProvider<Namespace> provider = provider(conf);
    Namespace namespace = withRetries(provider);
    String first = namespace.whoAmI();
    namenodes.down.add(first);
    namenodes.attempts.clear();

    String second = namespace.create("/file");

    assertNotEquals(first, second);
    List<Attempt> attempts = List.copyOf(namenodes.attempts);
    assertEquals(2, attempts.size(), attempts.toString());
    assertEquals(new Attempt(first, attempts.get(0).callId(), 0), attempts.get(0));
    assertTrue(attempts.get(0).callId() >= 0, "the retry handler gave the call a real call id: " + attempts);
    assertEquals(new Attempt(second, attempts.get(0).callId(), 1), attempts.get(1), "same call, retried");
    assertEquals(second, provider.selector().current());
    for (int i = 0; i < 5; i++) {
      assertEquals(second, namespace.whoAmI(), "sticks to the namenode it failed over to");
    }
  }

  @Test
  void perCallPoliciesRetryAFailedCallOnAnotherNamenodeAndThenAvoidTheDeadOne() throws IOException {
    for (String policy : List.of("random", "round-robin")) {
      namenodes.down.clear();
      namenodes.down.add(SEEDS.get(1));
      namenodes.attempts.clear();
      Configuration conf = conf(policy);
      conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
      Namespace namespace = withRetries(provider(conf));
      for (int i = 0; i < 30; i++) {
        assertNotEquals(SEEDS.get(1), namespace.create("/f" + i));
      }
      long onDead = namenodes.addresses().stream().filter(SEEDS.get(1)::equals).count();
      assertTrue(onDead == 1, policy + ": the dead namenode is tried once, then avoided; tried " + onDead);
      assertEquals(Set.of(SEEDS.get(0), SEEDS.get(2)), new HashSet<>(namenodes.addresses().subList(
          namenodes.addresses().size() - 10, namenodes.addresses().size())), policy + " spreads over the live two");
    }
  }

  @Test
  void anAnswerFromALiveNamenodeIsNotAFailover() {
    Configuration conf = conf("sticky");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    CanopyFailoverProxyProvider<Namespace> provider = provider(conf);
    Namespace namespace = withRetries(provider);
    assertThrows(RemoteException.class, () -> namespace.create("/bad/path"));
    assertEquals(List.of(SEEDS.get(0)), namenodes.addresses(), "tried once, not retried elsewhere");
    assertEquals(SEEDS.get(0), provider.selector().current());
  }

  @Test
  void whenEveryNamenodeIsDownTheCallFailsAfterTryingThemAll() {
    Configuration conf = conf("sticky");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    namenodes.down.addAll(SEEDS);
    Namespace namespace = (Namespace) RetryProxy.create(Namespace.class, provider(conf),
        RetryPolicies.failoverOnNetworkException(RetryPolicies.TRY_ONCE_THEN_FAIL, 5, 10, 0, 0));
    ConnectException e = assertThrows(ConnectException.class, namespace::whoAmI);
    assertTrue(e.getMessage().contains("127.0.0.1:900"), "the error names the namenode: " + e.getMessage());
    assertEquals(6, namenodes.attempts.size(), "one try and five failovers");
    assertEquals(new HashSet<>(SEEDS), new HashSet<>(namenodes.addresses()));
  }

  @Test
  void theLearnedListIsUsedAndRefreshedOncePerIntervalOfTheInjectedClock() throws IOException {
    listSource.answer = List.of(new NamenodeList.Entry(7, "127.0.0.1:9007", 0, true),
        new NamenodeList.Entry(8, "127.0.0.1:9008", 0, false));
    Configuration conf = conf("round-robin");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 1_000);
    Namespace namespace = withRetries(provider(conf));

    namespace.whoAmI(); // the first call starts the first refresh; it ran on the direct executor
    assertEquals(1, listSource.asked.size());
    Set<String> next = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      next.add(namespace.whoAmI());
    }
    assertEquals(Set.of("127.0.0.1:9007", "127.0.0.1:9008"), next, "the learned namenodes replace the seeds");
    assertEquals(1, listSource.asked.size(), "not due yet");

    clock.addAndGet(999);
    namespace.whoAmI();
    assertEquals(1, listSource.asked.size(), "still not due");
    listSource.answer = List.of(new NamenodeList.Entry(9, "127.0.0.1:9009", 0, true));
    clock.addAndGet(1);
    namespace.whoAmI();
    assertEquals(2, listSource.asked.size(), "due after one interval");
    assertEquals(List.of("127.0.0.1:9009", "127.0.0.1:9009"), List.of(namespace.whoAmI(), namespace.whoAmI()));
  }

  @Test
  void aNamenodeAdvertisedByHostNameIsTheNamenodeConfiguredByAddress() throws IOException {
    assumeTrue(InetAddress.getByName("localhost").getHostAddress().equals("127.0.0.1"), "localhost is 127.0.0.1");
    listSource.answer = List.of(new NamenodeList.Entry(1, "127.0.0.1:9009", 0, true),
        new NamenodeList.Entry(2, "localhost:9001", 0, false));
    Namespace namespace = withRetries(provider(conf("sticky")));
    assertEquals(SEEDS.get(0), namespace.whoAmI()); // and the first refresh ran, on the direct executor
    assertEquals(1, listSource.asked.size());
    assertEquals(List.of(SEEDS.get(0), SEEDS.get(0)), List.of(namespace.whoAmI(), namespace.whoAmI()),
        "localhost:9001 is still listed: the sticky client stays");
  }

  @Test
  void aRefreshAsksTheNextNamenodeWhenOneIsDownAndKeepsTheListWhenNoneAnswers() {
    listSource.answer = List.of(new NamenodeList.Entry(2, SEEDS.get(1), 0, true));
    listSource.down.add(SEEDS.get(0));
    Configuration conf = conf("sticky");
    CanopyFailoverProxyProvider<Namespace> provider = provider(conf);
    provider.selector().choose(); // sticky: on the first seed, which is asked first
    assertTrue(provider.refreshNamenodeList());
    assertEquals(SEEDS.get(0), listSource.asked.get(0));
    assertEquals(2, listSource.asked.size(), "the second namenode answered");
    assertEquals(listSource.answer, provider.selector().learned());
    assertEquals(SEEDS.get(1), provider.selector().choose(), "the failed one is avoided, and no longer listed");

    listSource.asked.clear();
    listSource.down.addAll(SEEDS);
    assertFalse(provider.refreshNamenodeList());
    assertEquals(new HashSet<>(SEEDS), new HashSet<>(listSource.asked), "every known namenode was asked");
    assertEquals(List.of(new NamenodeList.Entry(2, SEEDS.get(1), 0, true)), provider.selector().learned(),
        "the last list stays");
  }

  @Test
  void theLocationDomainIsPreferredAndOthersServeWhenItsNamenodesAreDown() throws IOException {
    listSource.answer = List.of(new NamenodeList.Entry(1, "127.0.0.1:9001", 1, true),
        new NamenodeList.Entry(2, "127.0.0.1:9002", 2, false), new NamenodeList.Entry(3, "127.0.0.1:9003", 2, false),
        new NamenodeList.Entry(4, "127.0.0.1:9004", 3, false));
    Configuration conf = conf("random");
    conf.setInt(ClientConfig.LOCATION_DOMAIN_ID, 2);
    Namespace namespace = withRetries(provider(conf));
    namespace.whoAmI();
    namenodes.attempts.clear();
    for (int i = 0; i < 20; i++) {
      namespace.whoAmI();
    }
    assertEquals(Set.of("127.0.0.1:9002", "127.0.0.1:9003"), new HashSet<>(namenodes.addresses()));
    namenodes.down.addAll(Set.of("127.0.0.1:9002", "127.0.0.1:9003"));
    namenodes.attempts.clear();
    for (int i = 0; i < 20; i++) {
      String answer = namespace.whoAmI();
      assertTrue(Set.of("127.0.0.1:9001", "127.0.0.1:9004").contains(answer), answer);
    }
  }

  @Test
  void closeClosesEveryNamenodeProxyItCreated() throws IOException {
    Configuration conf = conf("round-robin");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    CanopyFailoverProxyProvider<Namespace> provider = provider(conf);
    Namespace namespace = withRetries(provider);
    namespace.whoAmI();
    namespace.whoAmI();
    RPC.stopProxy(namespace);
    assertEquals(Set.of(SEEDS.get(0), SEEDS.get(1)), namenodes.closed);
  }

  @Test
  void badConfigurationIsRefusedNamingTheKey() {
    Configuration noNamenodes = new Configuration(false);
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> new CanopyFailoverProxyProvider<>(noNamenodes, NAMESERVICE, Namespace.class, namenodes));
    assertTrue(none.getMessage().contains("dfs.ha.namenodes.canopy"), none.getMessage());
    IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
        () -> provider(conf("nearest")));
    assertTrue(policy.getMessage().contains(ClientConfig.NAMENODE_SELECTION), policy.getMessage());
    Configuration badSeed = conf("random");
    badSeed.set(ClientConfig.RANDOM_SEED, "lucky");
    IllegalArgumentException seed = assertThrows(IllegalArgumentException.class, () -> provider(badSeed));
    assertTrue(seed.getMessage().contains(ClientConfig.RANDOM_SEED), seed.getMessage());
  }

  @Test
  void describesTheNamenodeItIsOnForHadoopsLogs() {
    Configuration conf = conf("sticky");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    CanopyFailoverProxyProvider<Namespace> provider = provider(conf);
    provider.selector().choose();
    String described = provider.getProxy().getString("create");
    assertTrue(described.contains("create") && described.contains(SEEDS.get(0)) && described.contains("canopy"),
        described);
  }

  @Test
  void concurrentCallsAllSucceedAcrossAFailover() throws Exception {
    Configuration conf = conf("random-sticky");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    CanopyFailoverProxyProvider<Namespace> provider = provider(conf);
    Namespace namespace = withRetries(provider);
    String first = namespace.whoAmI();
    AtomicInteger failures = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        for (int i = 0; i < 200; i++) {
          if (i == 50) {
            namenodes.down.add(first);
          }
          try {
            namespace.whoAmI();
          } catch (IOException e) {
            failures.incrementAndGet();
          }
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(0, failures.get());
    assertNotEquals(first, provider.selector().current());
  }
}

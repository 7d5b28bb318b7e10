package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.security.SharedDelegationTokens;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosName;
import org.apache.hadoop.security.token.Token;
import org.apache.kerby.KOptions;
import org.apache.kerby.kerberos.kerb.client.KrbClient;
import org.apache.kerby.kerberos.kerb.client.KrbOption;
import org.apache.kerby.kerberos.kerb.type.ticket.TgtTicket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kerberos cluster (issue 20, design 023) against a real KDC (Hadoop's MiniKdc): two namenodes and three stock
 * DataNodes logged in from a keytab, SASL with {@code hadoop.rpc.protection=privacy} on every RPC, block access tokens,
 * SASL with privacy on data transfer ({@code dfs.data.transfer.protection}), to the DataNodes and to the namenodes'
 * small-file endpoint. A user with a ticket works through either namenode; one without a ticket, or whose ticket
 * expired, is refused; a delegation token issued by one namenode authenticates on the other, is renewed there by its
 * renewer only, and once cancelled is refused by both; master keys roll and tokens signed with an older key still
 * work. Runs in its own JVM (the surefire execution {@code kerberos}): Kerberos settings are process-wide.
 */
@Timeout(300)
class KerberosClusterTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  /** Master keys roll this often, so the test sees tokens of two keys. */
  private static final long KEY_UPDATE_MS = 3_000;

  @TempDir
  static Path directory;

  private static MiniKdc kdc;
  private static MiniCanopyCluster cluster;
  private static File userKeytab;
  private static String realm;

  @BeforeAll
  static void startKdcAndCluster() throws Exception {
    Path kdcDirectory = Files.createDirectories(directory.resolve("kdc"));
    kdc = new MiniKdc(MiniKdc.createConf(), kdcDirectory.toFile());
    kdc.start();
    realm = kdc.getRealm();
    KerberosName.resetDefaultRealm();
    File serviceKeytab = kdcDirectory.resolve("hdfs.keytab").toFile();
    kdc.createPrincipal(serviceKeytab, "hdfs/localhost", "HTTP/localhost", "HTTP/127.0.0.1"); // HTTP/: SPNEGO
    userKeytab = kdcDirectory.resolve("users.keytab").toFile();
    kdc.createPrincipal(userKeytab, "alice", "bob", "carol");

    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hadoop.rpc.protection", "privacy");
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, "hdfs/_HOST@" + realm);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, serviceKeytab.getPath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, "hdfs/localhost@" + realm);
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, serviceKeytab.getPath());
    // SASL with privacy on data transfer too (DataNodes and the small-file endpoint); the DataNodes' HTTP stays plain
    // (HDFS otherwise wants HTTPS_ONLY with keystores): HDFS's switch for tests
    conf.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "privacy");
    conf.setBoolean(DFSConfigKeys.IGNORE_SECURE_PORTS_FOR_TESTING_KEY, true);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_KEY, KEY_UPDATE_MS);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_KEY, 60_000);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY, 600_000);
    conf.setLong(SharedDelegationTokens.CACHE_MS_KEY, 500);
    UserGroupInformation.setConfiguration(conf);
    cluster = MiniCanopyCluster.start(directory.resolve("cluster"), conf, 2, 3);
  }

  @AfterAll
  static void stopAll() throws Exception {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (kdc != null) {
        kdc.stop();
      }
    }
  }

  private static UserGroupInformation login(String user) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(user + "@" + realm, userKeytab.getPath());
  }

  /** A new client of namenode {@code index} as {@code user}, with {@code conf}'s settings. */
  private static DistributedFileSystem client(UserGroupInformation user, int index, Configuration conf)
      throws Exception {
    return user.doAs((PrivilegedExceptionAction<DistributedFileSystem>) () ->
        (DistributedFileSystem) FileSystem.newInstance(URI.create(cluster.uri(index)), conf));
  }

  private static DistributedFileSystem client(UserGroupInformation user, int index) throws Exception {
    return client(user, index, new Configuration(cluster.conf()));
  }

  /** The message of {@code e} and its causes, for asserting on a refusal's reason. */
  static String messages(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t).append(" / ");
    }
    return all.toString();
  }

  @Test
  void aUserWithATicketWritesThroughOneNamenodeAndReadsThroughTheOther() throws Exception {
    UserGroupInformation alice = login("alice");
    byte[] data = TestFiles.randomBytes(2 * BLOCK_SIZE + 5, 7);
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/user/alice/two-blocks");
    try (DistributedFileSystem admin = client(UserGroupInformation.getLoginUser(), 0)) {
      admin.mkdirs(file.getParent());
      admin.setOwner(file.getParent(), "alice", null);
    }
    try (DistributedFileSystem first = client(alice, 0); DistributedFileSystem second = client(alice, 1)) {
      TestFiles.write(first, file, data, BLOCK_SIZE);
      assertArrayEquals(data, TestFiles.read(second, file));
      assertEquals("alice", second.getFileStatus(file).getOwner(), "the principal's short name owns the file");
      assertEquals("alice", alice.doAs((PrivilegedExceptionAction<String>) () ->
          first.getClient().getNamenode().getFileInfo(file.toString()).getOwner()));
    }
    // a small file, written by Canopy's client (its own RPC protocol, authenticated the same way) into the database,
    // read by a stock client from the small-file endpoint through the SASL handshake of protected data transfer
    Configuration canopyConf = new Configuration(cluster.conf());
    canopyConf.set("fs.hdfs.impl", io.canopy.client.CanopyFileSystem.class.getName());
    byte[] small = TestFiles.randomBytes(600, 8);
    org.apache.hadoop.fs.Path smallFile = new org.apache.hadoop.fs.Path("/user/alice/small");
    try (FileSystem canopy = alice.doAs((PrivilegedExceptionAction<FileSystem>) () ->
        FileSystem.newInstance(URI.create(cluster.uri(0)), canopyConf))) {
      alice.doAs((PrivilegedExceptionAction<Void>) () -> {
        TestFiles.write(canopy, smallFile, small, BLOCK_SIZE);
        assertArrayEquals(small, TestFiles.read(canopy, smallFile));
        return null;
      });
    }
    try (DistributedFileSystem stock = client(alice, 1)) {
      int endpointPort = cluster.nameNode(1).smallFileReadAddress().getPort();
      assertEquals(endpointPort, stock.getClient().getNamenode().getBlockLocations(smallFile.toString(), 0, 600)
          .get(0).getLocations()[0].getXferPort(), "the small file lives in the database");
      assertArrayEquals(small, TestFiles.read(stock, smallFile));
    }
  }

  @Test
  void aUserWithoutATicketIsRefused() throws Exception {
    UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
    Configuration conf = new Configuration(cluster.conf());
    try (DistributedFileSystem fs = client(mallory, 0, conf)) {
      IOException refused = assertThrows(IOException.class,
          () -> mallory.doAs((PrivilegedExceptionAction<Boolean>) () -> fs.mkdirs(TestFiles.path("/mallory"))));
      assertTrue(messages(refused).contains("Client cannot authenticate via:[TOKEN, KERBEROS]"), messages(refused));
    }
  }

  @Test
  void aClientThatWillNotEncryptIsRefusedByPrivacy() throws Exception {
    Configuration plain = new Configuration(cluster.conf());
    plain.set("hadoop.rpc.protection", "authentication");
    UserGroupInformation alice = login("alice");
    try (DistributedFileSystem fs = client(alice, 0, plain)) {
      IOException refused = assertThrows(IOException.class,
          () -> alice.doAs((PrivilegedExceptionAction<Object>) () -> fs.getFileStatus(TestFiles.path("/"))));
      assertTrue(messages(refused).contains("No common protection layer"), messages(refused));
    }
  }

  @Test
  void anExpiredTicketIsRefused() throws Exception {
    File ticketCache = directory.resolve("bob.ccache").toFile();
    KrbClient kerberos = new KrbClient(kdc.getKrb5conf().getParentFile());
    kerberos.init();
    KOptions options = new KOptions();
    options.add(KrbOption.CLIENT_PRINCIPAL, "bob@" + realm);
    options.add(KrbOption.USE_KEYTAB, true);
    options.add(KrbOption.KEYTAB_FILE, userKeytab);
    options.add(KrbOption.LIFE_TIME, 8);
    TgtTicket ticket = kerberos.requestTgt(options);
    kerberos.storeTicket(ticket, ticketCache);
    long expiresMs = ticket.getEncKdcRepPart().getEndTime().getTime();
    assertTrue(expiresMs - System.currentTimeMillis() < 30_000, "a short ticket: expires at " + expiresMs);
    // two logins from the cache while the ticket is valid: one calls now, the other only after the ticket's end
    // (MiniKdc's KDC grants service tickets past their ticket-granting ticket's end, so a client that already holds
    // one would go on; a real KDC caps them)
    UserGroupInformation bobNow = UserGroupInformation.getUGIFromTicketCache(ticketCache.getPath(), "bob@" + realm);
    UserGroupInformation bobLater = UserGroupInformation.getUGIFromTicketCache(ticketCache.getPath(), "bob@" + realm);
    try (DistributedFileSystem fs = client(bobNow, 0)) {
      assertNotNull(bobNow.doAs((PrivilegedExceptionAction<Object>) () -> fs.getFileStatus(TestFiles.path("/"))),
          "the ticket works before it expires");
    }
    Await.until("the ticket's end", Duration.ofSeconds(40), () -> System.currentTimeMillis() > expiresMs + 1_000);
    try (DistributedFileSystem fs = client(bobLater, 0)) {
      IOException refused = assertThrows(IOException.class,
          () -> bobLater.doAs((PrivilegedExceptionAction<Object>) () -> fs.getFileStatus(TestFiles.path("/"))));
      assertTrue(messages(refused).contains("Failed to find any Kerberos tgt")
          || messages(refused).contains("Client cannot authenticate"), messages(refused));
    }
  }

  @Test
  void delegationTokensWorkOnEveryNamenodeUntilCancelled() throws Exception {
    UserGroupInformation alice = login("alice");
    InetSocketAddress first = cluster.nameNode(0).address();
    InetSocketAddress second = cluster.nameNode(1).address();
    Token<DelegationTokenIdentifier> token;
    try (DistributedFileSystem fs = client(alice, 0)) {
      token = alice.doAs((PrivilegedExceptionAction<Token<DelegationTokenIdentifier>>) () ->
          fs.getClient().getNamenode().getDelegationToken(new Text("alice")));
    }
    assertNotNull(token, "a Kerberos user gets a token");
    DelegationTokenIdentifier identifier = token.decodeIdentifier();
    assertEquals("alice@" + realm, identifier.getOwner().toString());

    // a process holding only the token (a job's task) works through the namenode that did not issue it
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    Token<DelegationTokenIdentifier> forSecond = new Token<>(token);
    SecurityUtil.setTokenService(forSecond, second);
    task.addToken(forSecond);
    try (DistributedFileSystem fs = client(task, 1)) {
      assertNotNull(task.doAs((PrivilegedExceptionAction<Object>) () -> fs.getFileStatus(TestFiles.path("/"))));
      // a token holder cannot get more tokens (it could extend its access forever)
      IOException refused = assertThrows(IOException.class, () -> task.doAs(
          (PrivilegedExceptionAction<Object>) () -> fs.getClient().getNamenode().getDelegationToken(new Text("x"))));
      assertTrue(messages(refused).contains("only with kerberos"), messages(refused));
    }

    // renewed through the other namenode by its renewer; refused to anyone else
    long expiry;
    try (DistributedFileSystem fs = client(alice, 1)) {
      expiry = alice.doAs((PrivilegedExceptionAction<Long>) () ->
          fs.getClient().getNamenode().renewDelegationToken(token));
    }
    assertTrue(expiry > System.currentTimeMillis() + 30_000, "renewed for the renew interval: " + expiry);
    UserGroupInformation carol = login("carol");
    try (DistributedFileSystem fs = client(carol, 1)) {
      IOException refused = assertThrows(IOException.class, () -> carol.doAs(
          (PrivilegedExceptionAction<Long>) () -> fs.getClient().getNamenode().renewDelegationToken(token)));
      assertTrue(messages(refused).contains("non-matching renewer"), messages(refused));
    }

    // keys roll: a token issued after a roll is signed with a newer key, and both authenticate on the other namenode
    Await.until("a token signed with a newer master key than " + identifier.getMasterKeyId(),
        Duration.ofSeconds(30), () -> {
      try (DistributedFileSystem fs = client(alice, 0)) {
        Token<DelegationTokenIdentifier> later = alice.doAs(
            (PrivilegedExceptionAction<Token<DelegationTokenIdentifier>>) () ->
                fs.getClient().getNamenode().getDelegationToken(new Text("alice")));
        return later.decodeIdentifier().getMasterKeyId() != identifier.getMasterKeyId();
      }
    });
    Configuration fresh = new Configuration(cluster.conf());
    fresh.setInt("ipc.client.connection.maxidletime", 200);
    UserGroupInformation oldTask = UserGroupInformation.createRemoteUser("alice");
    Token<DelegationTokenIdentifier> onFirst = new Token<>(token);
    SecurityUtil.setTokenService(onFirst, first);
    oldTask.addToken(onFirst);
    try (DistributedFileSystem fs = client(oldTask, 0, fresh)) {
      assertNotNull(oldTask.doAs((PrivilegedExceptionAction<Object>) () -> fs.getFileStatus(TestFiles.path("/"))),
          "the token of the older key still authenticates");
    }

    // cancelled through one namenode: refused by both
    try (DistributedFileSystem fs = client(alice, 1)) {
      alice.doAs((PrivilegedExceptionAction<Void>) () -> {
        fs.getClient().getNamenode().cancelDelegationToken(token);
        return null;
      });
    }
    Thread.sleep(1_500); // past the other namenode's cache of the token's row
    for (InetSocketAddress address : new InetSocketAddress[] {first, second}) {
      UserGroupInformation cancelledTask = UserGroupInformation.createRemoteUser("alice");
      Token<DelegationTokenIdentifier> copy = new Token<>(token);
      SecurityUtil.setTokenService(copy, address);
      cancelledTask.addToken(copy);
      int index = address.equals(first) ? 0 : 1;
      try (DistributedFileSystem fs = client(cancelledTask, index, fresh)) {
        IOException refused = assertThrows(IOException.class, () -> cancelledTask.doAs(
            (PrivilegedExceptionAction<Object>) () -> fs.getFileStatus(TestFiles.path("/"))), address.toString());
        assertTrue(messages(refused).contains("token") || messages(refused).contains("Token"), messages(refused));
      }
    }
  }

  /**
   * Only datanodes call DatanodeProtocol: a Kerberos user who registers as a datanode on the service port (to be handed
   * the block keys) is refused, and a token holder is not even let in there (datanodes hold no tokens).
   */
  @Test
  void onlyDatanodesUseTheServicePort() throws Exception {
    InetSocketAddress service = cluster.nameNode(0).serviceAddress();
    Configuration conf = new Configuration(cluster.conf());
    UserGroupInformation alice = login("alice");
    IOException refused = assertThrows(IOException.class, () -> alice.doAs((PrivilegedExceptionAction<Object>) () -> {
      try (org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB datanode =
          new org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB(service, conf)) {
        return datanode.versionRequest();
      }
    }));
    assertTrue(messages(refused).contains("only datanodes"), messages(refused));

    Token<DelegationTokenIdentifier> token;
    try (DistributedFileSystem fs = client(alice, 0)) {
      token = alice.doAs((PrivilegedExceptionAction<Token<DelegationTokenIdentifier>>) () ->
          fs.getClient().getNamenode().getDelegationToken(new Text("alice")));
    }
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    Token<DelegationTokenIdentifier> forService = new Token<>(token);
    SecurityUtil.setTokenService(forService, service);
    task.addToken(forService);
    IOException noTokens = assertThrows(IOException.class, () -> task.doAs((PrivilegedExceptionAction<Object>) () -> {
      try (org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB datanode =
          new org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB(service, conf)) {
        return datanode.versionRequest();
      }
    }));
    assertTrue(messages(noTokens).contains("Client cannot authenticate via:[KERBEROS]"), messages(noTokens));
    // and a token holder may cancel its own token (as HDFS), but not renew it
    UserGroupInformation holder = UserGroupInformation.createRemoteUser("alice");
    Token<DelegationTokenIdentifier> forClients = new Token<>(token);
    SecurityUtil.setTokenService(forClients, cluster.nameNode(0).address());
    holder.addToken(forClients);
    try (DistributedFileSystem fs = client(holder, 0)) {
      IOException renew = assertThrows(IOException.class, () -> holder.doAs(
          (PrivilegedExceptionAction<Long>) () -> fs.getClient().getNamenode().renewDelegationToken(token)));
      assertTrue(messages(renew).contains("only with kerberos"), messages(renew));
      holder.doAs((PrivilegedExceptionAction<Void>) () -> {
        fs.getClient().getNamenode().cancelDelegationToken(token);
        return null;
      });
    }
  }

  /** A raw HTTP GET of namenode {@code index}'s {@code pathAndQuery}: its status and body. */
  private static String[] get(int index, String pathAndQuery) throws IOException {
    InetSocketAddress http = cluster.nameNode(index).httpAddress();
    return answer((HttpURLConnection) new URL("http://127.0.0.1:" + http.getPort() + pathAndQuery).openConnection());
  }

  /** The status and body of {@code connection}'s answer; disconnects it. */
  private static String[] answer(HttpURLConnection connection) throws IOException {
    try {
      int status = connection.getResponseCode();
      try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
        return new String[] {Integer.toString(status),
            body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8)};
      }
    } finally {
      connection.disconnect();
    }
  }

  /** A request to namenode {@code index} authenticated with SPNEGO as {@code user}: its status and body. */
  private static String[] spnego(UserGroupInformation user, String method, int index, String pathAndQuery)
      throws Exception {
    return user.doAs((PrivilegedExceptionAction<String[]>) () -> {
      URL url = new URL("http://127.0.0.1:" + cluster.nameNode(index).httpAddress().getPort() + pathAndQuery);
      HttpURLConnection connection = new org.apache.hadoop.security.authentication.client.AuthenticatedURL()
          .openConnection(url, new org.apache.hadoop.security.authentication.client.AuthenticatedURL.Token());
      connection.setRequestMethod(method);
      return answer(connection);
    });
  }

  /** A WebHDFS delegation token for {@code user} (SPNEGO), through Hadoop's WebHdfsFileSystem on namenode 0. */
  private static String webToken(UserGroupInformation user, String renewer) throws Exception {
    URI web0 = URI.create("webhdfs://127.0.0.1:" + cluster.nameNode(0).httpAddress().getPort());
    try (FileSystem web = user.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(web0,
        new Configuration(cluster.conf())))) {
      return user.doAs((PrivilegedExceptionAction<String>) () -> web.getDelegationToken(renewer)
          .encodeToUrlString());
    }
  }

  @Test
  void webHdfsTakesSpnegoOrAVerifiedTokenAndNeverAUserName() throws Exception {
    // no SPNEGO, no token: a stated user name is not believed (HDFS's filter answers 401 with a Negotiate challenge)
    String[] stated = get(0, "/webhdfs/v1/?op=LISTSTATUS&user.name=hdfs");
    assertEquals("401", stated[0], stated[1]);
    assertEquals("401", get(1, "/fsck?path=/&ugi=hdfs")[0], "fsck needs SPNEGO too");
    assertEquals("401", get(1, "/logLevel?log=org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit&level=OFF")[0],
        "nobody unauthenticated may turn the audit log off");
    UserGroupInformation alice = login("alice");
    UserGroupInformation bob = login("bob");
    assertEquals("403", spnego(alice, "GET", 1, "/logLevel?log=org.apache.hadoop.hdfs.server.namenode"
        + ".FSNamesystem.audit&level=OFF")[0], "only administrators change log levels");
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/user/alice/web");
    try (DistributedFileSystem admin = client(UserGroupInformation.getLoginUser(), 0)) {
      admin.mkdirs(dir);
      admin.setOwner(dir, "alice", null);
      admin.setPermission(dir, new org.apache.hadoop.fs.permission.FsPermission((short) 0700));
    }
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE + 99, 21);
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "f");
    URI web0 = URI.create("webhdfs://127.0.0.1:" + cluster.nameNode(0).httpAddress().getPort());
    try (FileSystem web = alice.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(web0,
        new Configuration(cluster.conf())))) {
      // SPNEGO for the token, then the token for every call and on the redirects to the DataNodes
      alice.doAs((PrivilegedExceptionAction<Void>) () -> {
        TestFiles.write(web, file, data, BLOCK_SIZE);
        assertArrayEquals(data, TestFiles.read(web, file));
        assertEquals("alice", web.getFileStatus(file).getOwner());
        return null;
      });
    }
    // SPNEGO alone: the redirect to a DataNode carries a token the namenode issued for the caller
    String[] open = spnego(alice, "GET", 1, "/webhdfs/v1/user/alice/web/f?op=OPEN&noredirect=true");
    assertEquals("200", open[0], open[1]);
    String location = open[1].replaceAll("(?s).*\"Location\":\"([^\"]+)\".*", "$1");
    assertTrue(location.contains("delegation="), location);
    HttpURLConnection datanode = (HttpURLConnection) new URL(location).openConnection();
    try (InputStream body = datanode.getInputStream()) {
      assertArrayEquals(data, body.readAllBytes(), "read from the DataNode with the redirect's token");
    } finally {
      datanode.disconnect();
    }
    // SPNEGO wins over a stated user name: bob cannot act as alice
    String[] asAlice = spnego(bob, "GET", 0, "/webhdfs/v1/user/alice/web?op=LISTSTATUS&user.name=alice");
    assertEquals("403", asAlice[0], asAlice[1]);
    assertTrue(asAlice[1].contains("AccessControlException") && asAlice[1].contains("user=bob"), asAlice[1]);

    // a token one namenode issued over HTTP is honoured by the other, as its owner and nobody else
    String token = webToken(alice, null);
    String[] listed = get(1, "/webhdfs/v1/user/alice/web?op=LISTSTATUS&delegation=" + token);
    assertEquals("200", listed[0], listed[1]);
    assertTrue(listed[1].contains("\"owner\":\"alice\""), listed[1]);
    String[] bobs = get(1, "/webhdfs/v1/user/alice/web?op=LISTSTATUS&delegation=" + webToken(bob, null));
    assertEquals("403", bobs[0], bobs[1]);
    assertTrue(bobs[1].contains("user=bob"), "bob's token acts as bob: " + bobs[1]);
    // a forged one is not
    Token<DelegationTokenIdentifier> decoded = new Token<>();
    decoded.decodeFromUrlString(token);
    byte[] password = decoded.getPassword().clone();
    password[0] ^= 1;
    String forged = new Token<DelegationTokenIdentifier>(decoded.getIdentifier(), password, decoded.getKind(),
        decoded.getService()).encodeToUrlString();
    String[] refused = get(1, "/webhdfs/v1/user/alice/web?op=LISTSTATUS&delegation=" + forged);
    assertEquals("403", refused[0], refused[1]);
    assertTrue(refused[1].contains("InvalidToken"), refused[1]);
    // renewed (no renewer named: the caller renews it, as HDFS), then cancelled, over HTTP with SPNEGO
    assertEquals("alice", decoded.decodeIdentifier().getRenewer().toString());
    String[] renewed = spnego(alice, "PUT", 1, "/webhdfs/v1/?op=RENEWDELEGATIONTOKEN&token=" + token);
    assertEquals("200", renewed[0], renewed[1]);
    assertTrue(renewed[1].matches("\\{\"long\":\\d+\\}\\s*"), renewed[1]);
    assertEquals("403", spnego(bob, "PUT", 1, "/webhdfs/v1/?op=CANCELDELEGATIONTOKEN&token=" + token)[0],
        "neither owner nor renewer");
    String[] cancelled = spnego(alice, "PUT", 0, "/webhdfs/v1/?op=CANCELDELEGATIONTOKEN&token=" + token);
    assertEquals("200", cancelled[0], cancelled[1]);
    Await.until("the cancelled token refused by the other namenode", Duration.ofSeconds(10),
        () -> get(1, "/webhdfs/v1/user/alice/web?op=LISTSTATUS&delegation=" + token)[0].equals("403"));
    // fsck over HTTP with SPNEGO runs as the SPNEGO user
    String[] fsck = spnego(alice, "GET", 1, "/fsck?path=/user/alice&ugi=hdfs");
    assertTrue(fsck[1].contains("is HEALTHY"), fsck[1]);
    assertTrue(fsck[1].contains("FSCK started by alice "), "fsck runs as the SPNEGO user:\n" + fsck[1]);
  }

}

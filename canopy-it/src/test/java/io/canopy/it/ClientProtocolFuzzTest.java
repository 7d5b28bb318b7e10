package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.canopy.client.CanopyClientProtocol;
import io.canopy.client.CanopyClientProxies;
import io.canopy.metadata.MetadataStore;
import io.canopy.namenode.NameNodeConfig;
import java.io.EOFException;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Generated {@code ClientProtocol} calls (jqwik) sent by the stock client's RPC proxy, as the superuser and as a plain
 * user, with paths, names, numbers and blocks a client would rarely send: every call ends within a bound, with a result
 * or with an exception a client can act on (never a server-side crash such as a {@code NullPointerException}, never
 * the database's words), and the metadata's invariants ({@code canopy fsck}'s checks) hold after every sequence. jqwik
 * prints the seed of a failing run; rerun it with {@code -Djqwik.seeds.whenfixed=...} or {@code @Property(seed=...)}.
 */
class ClientProtocolFuzzTest {
  /** Server-side exception classes that mean a bug: what the namenode threw was not a refusal it meant to make. */
  private static final Set<String> CRASHES = Set.of("java.lang.NullPointerException", "java.lang.ClassCastException",
      "java.lang.ArrayIndexOutOfBoundsException", "java.lang.StringIndexOutOfBoundsException",
      "java.lang.IndexOutOfBoundsException", "java.lang.IllegalStateException", "java.lang.NumberFormatException",
      "java.lang.ArithmeticException", "java.util.ConcurrentModificationException", "java.lang.RuntimeException",
      "java.lang.Error", "java.lang.AssertionError", "java.lang.StackOverflowError", "java.lang.OutOfMemoryError",
      "java.util.NoSuchElementException", "java.io.UncheckedIOException");
  /** Words of the database or of Canopy's data-access layer that must never reach a client. */
  private static final List<String> LEAKS = List.of("PSQLException", "org.postgresql", "SQLState", "SQLSTATE",
      "io.canopy.metadata", "StoreException", "duplicate key", "violates", "relation \"", "ERROR: ");
  private static final long CALL_BOUND_SECONDS = 60;

  private static Path directory;
  private static MiniCanopyCluster cluster;
  private static MetadataStore store;
  private static Clients superuser;
  private static Clients user;
  private static final List<java.io.Closeable> handles = new ArrayList<>();
  private static UserClients users;
  private static ExecutorService caller;

  @BeforeContainer
  static void start() throws Exception {
    directory = Files.createTempDirectory("canopy-" + ClientProtocolFuzzTest.class.getSimpleName());
    var conf = MiniCanopyCluster.testConfiguration();
    conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true);
    cluster = MiniCanopyCluster.start(directory, conf, 1, 1);
    store = cluster.openStore();
    DistributedFileSystem admin = cluster.fileSystem();
    admin.mkdirs(new org.apache.hadoop.fs.Path("/fz/d"));
    admin.setPermission(new org.apache.hadoop.fs.Path("/fz"), new FsPermission((short) 0777));
    TestFiles.write(admin, new org.apache.hadoop.fs.Path("/fz/f"), TestFiles.randomBytes(3000, 1), 1024 * 1024);
    superuser = new Clients(admin.getClient().getNamenode(), canopyCalls(UserGroupInformation.getCurrentUser()));
    users = new UserClients(cluster);
    UserGroupInformation fuzzer = UserGroupInformation.createUserForTesting("fuzzer", new String[] {"fuzzers"});
    user = new Clients(users.as(fuzzer, new org.apache.hadoop.conf.Configuration(cluster.conf())).getClient().getNamenode(),
        canopyCalls(fuzzer));
    caller = Executors.newSingleThreadExecutor();
  }

  /** Canopy's own calls of the cluster's namenode, as {@code ugi}. */
  private static CanopyClientProtocol canopyCalls(UserGroupInformation ugi) throws Exception {
    CanopyClientProxies.Handle handle = ugi.doAs((PrivilegedExceptionAction<CanopyClientProxies.Handle>) () ->
        CanopyClientProxies.create(cluster.conf(), URI.create(cluster.uri())));
    handles.add(handle);
    return handle.calls();
  }

  @AfterContainer
  static void stop() throws Exception {
    for (java.io.Closeable handle : handles) {
      handle.close();
    }
    try (AutoCloseable deletion = () -> FileUtil.fullyDelete(directory.toFile()); AutoCloseable c = cluster;
        AutoCloseable s = store; AutoCloseable u = users) {
      if (caller != null) {
        caller.shutdownNow();
      }
    }
  }

  /** One generated call: what it is (for the failure message) and how to make it. */
  private record Call(String describe, boolean asSuperuser, Action action) {
    @Override
    public String toString() {
      return (asSuperuser ? "superuser " : "user ") + describe;
    }
  }

  /** The namenode as one caller reaches it: HDFS's protocol and Canopy's own (design 016). */
  private record Clients(ClientProtocol hdfs, CanopyClientProtocol canopy) {
  }

  @FunctionalInterface
  private interface Action {
    Object on(Clients namenode) throws Exception;
  }

  @Property(tries = 400, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.MIXIN)
  void generatedCallsEndInAnswersOrRefusalsAndKeepTheInvariants(
      @ForAll("sequences") List<Call> calls) throws Exception {
    for (Call call : calls) {
      Throwable thrown = run(call);
      judge(call, thrown);
      Statistics.label("outcome").collect(thrown == null ? "answered" : "refused");
      if (thrown != null) {
        Statistics.label("refusal").collect(thrown instanceof RemoteException remote
            ? remote.getClassName().substring(remote.getClassName().lastIndexOf('.') + 1)
            : thrown.getClass().getSimpleName());
      }
    }
    // the generator reaches both sides: calls the namenode carries out, and calls it refuses
    Statistics.label("outcome").coverage(checker -> {
      checker.check("answered").percentage(share -> share > 10);
      checker.check("refused").percentage(share -> share > 10);
    });
    assertEquals(List.of(), NamespaceInvariants.violations(store), "after " + calls);
    assertNotNull(superuser.hdfs().getFileInfo("/"), "the namenode still answers after " + calls);
  }

  /** What the call threw, or null; a call past the bound fails the test as a hang. */
  private static Throwable run(Call call) throws Exception {
    Clients namenode = call.asSuperuser() ? superuser : user;
    Future<?> answer = caller.submit(() -> call.action().on(namenode));
    try {
      answer.get(CALL_BOUND_SECONDS, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      return cause instanceof UndeclaredThrowableException wrapped ? wrapped.getCause() : cause;
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new AssertionError("no answer within " + CALL_BOUND_SECONDS + " s: " + call);
    }
  }

  private static void judge(Call call, Throwable thrown) {
    if (thrown == null) {
      return;
    }
    if (thrown instanceof RemoteException remote) {
      String name = remote.getClassName();
      String message = String.valueOf(remote.getMessage());
      if (CRASHES.contains(name) || name.startsWith("io.canopy.")) {
        throw new AssertionError("the namenode crashed on " + call + ": " + name + ": " + message, remote);
      }
      for (String leak : LEAKS) {
        if (message.contains(leak)) {
          throw new AssertionError("the database's words reached the client on " + call + ": " + message, remote);
        }
      }
      return;
    }
    if (thrown instanceof EOFException || thrown instanceof SocketException) {
      throw new AssertionError("the connection was lost on " + call, thrown);
    }
    if (!(thrown instanceof IOException)) {
      throw new AssertionError("the client failed on " + call + " (a local failure: fix the generator)", thrown);
    }
  }

  // ----------------------------------------------------------------------------------------------------------------
  // generators

  @Provide
  Arbitrary<List<Call>> sequences() {
    return calls().list().ofMinSize(1).ofMaxSize(15);
  }

  private static Arbitrary<String> paths() {
    // mostly names a namespace takes, so calls reach past path checks; some it must refuse
    Arbitrary<String> names = Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.of("d", "f", "g", "x", "a b", "é", "\uD83D\uDE00", "%2F", "-")),
        Tuple.of(2, Arbitraries.strings().withChars("abf.é").ofMinLength(1).ofMaxLength(6)),
        Tuple.of(1, Arbitraries.of(".", "..", ":", "", ".reserved", "a\u0000b", "t\tb")),
        Tuple.of(1, Arbitraries.strings().withChars('x').ofMinLength(250).ofMaxLength(260)));
    Arbitrary<String> generated = names.list().ofMinSize(1).ofMaxSize(4)
        .map(parts -> "/fz/" + String.join("/", parts));
    return Arbitraries.oneOf(generated, generated, generated, Arbitraries.of("/fz/d", "/fz/f", "/fz", "/", "", "//",
        "fz/f", "/fz/f/", "/fz//d", "/.reserved/.inodes/16385", "/.reserved/raw/fz", "/fz/d/../f", "/nonexistent/x"));
  }

  private static Arbitrary<Long> longs() {
    return Arbitraries.oneOf(Arbitraries.of(-1L, 0L, 1L, 512L, 1L << 30, Long.MAX_VALUE, Long.MIN_VALUE,
        (long) Integer.MAX_VALUE + 1), Arbitraries.longs());
  }

  private static Arbitrary<Short> shorts() {
    return Arbitraries.oneOf(Arbitraries.of((short) -1, (short) 0, (short) 1, (short) 3, (short) 0777, (short) 01777,
        Short.MAX_VALUE, Short.MIN_VALUE), Arbitraries.shorts());
  }

  private static Arbitrary<String> names() {
    return Arbitraries.oneOf(Arbitraries.of("", "alice", "fuzzer", "root", "supergroup", "a:b", "x y", "é"),
        Arbitraries.strings().ofMaxLength(20));
  }

  private static Arbitrary<String> clients() {
    return Arbitraries.of("DFSClient_fuzz", "DFSClient_other", "", "HDFS_NameNode", "x".repeat(300));
  }

  private static Arbitrary<ExtendedBlock> blocks() {
    return Combinators.combine(Arbitraries.of("BP-fuzz", "", cluster == null ? "BP" : poolId()), longs(), longs(),
        longs()).as(ExtendedBlock::new);
  }

  private static String poolId() {
    try {
      return store.identity().blockPoolId();
    } catch (IOException e) {
      return "BP";
    }
  }

  private static Arbitrary<EnumSet<CreateFlag>> createFlags() {
    return Arbitraries.subsetOf(CreateFlag.CREATE, CreateFlag.OVERWRITE, CreateFlag.APPEND, CreateFlag.NEW_BLOCK,
        CreateFlag.LAZY_PERSIST, CreateFlag.SYNC_BLOCK).map(flags -> flags.isEmpty()
            ? EnumSet.noneOf(CreateFlag.class) : EnumSet.copyOf(flags));
  }

  private static Arbitrary<List<AclEntry>> acls() {
    Arbitrary<AclEntry> entry = Combinators.combine(Arbitraries.of(AclEntryScope.class),
        Arbitraries.of(AclEntryType.class), Arbitraries.of("-", "", "alice", "fuzzers", "no:such"),
        Arbitraries.of(FsAction.class)).as((scope, type, name, action) -> new AclEntry.Builder().setScope(scope)
            .setType(type).setName(name.equals("-") ? null : name).setPermission(action).build());
    return entry.list().ofMaxSize(6);
  }

  private static Arbitrary<XAttr> xattrs() {
    return Combinators.combine(Arbitraries.of(XAttr.NameSpace.class),
        Arbitraries.oneOf(Arbitraries.of("a", "", "x".repeat(300)), Arbitraries.strings().ofMaxLength(10)),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(64).injectNull(0.2))
        .as((namespace, name, value) -> new XAttr.Builder().setNameSpace(namespace).setName(name).setValue(value)
            .build());
  }

  private static Arbitrary<Call> calls() {
    Arbitrary<Boolean> who = Arbitraries.of(true, false);
    List<Arbitrary<Call>> kinds = new ArrayList<>();
    kinds.add(Combinators.combine(who, paths(), shorts(), Arbitraries.of(true, false)).as((su, p, perm, parents) ->
        new Call("mkdirs " + p + " " + perm + " " + parents, su, n -> n.hdfs().mkdirs(p, new FsPermission(perm), parents))));
    kinds.add(Combinators.combine(who, paths(), shorts(), clients(), createFlags(), shorts(), longs())
        .as((su, p, perm, client, flags, replication, blockSize) -> new Call("create " + p + " " + flags + " r="
            + replication + " bs=" + blockSize, su, n -> n.hdfs().create(p, new FsPermission(perm), client,
                new EnumSetWritable<>(flags, CreateFlag.class), true, replication, blockSize,
                CryptoProtocolVersion.supported(), null, null))));
    kinds.add(Combinators.combine(who, paths(), clients(), createFlags()).as((su, p, client, flags) ->
        new Call("append " + p + " " + flags, su, n -> n.hdfs().append(p, client,
            new EnumSetWritable<>(flags, CreateFlag.class)))));
    kinds.add(Combinators.combine(who, paths(), Arbitraries.of(true, false)).as((su, p, recursive) ->
        new Call("delete " + p + " " + recursive, su, n -> n.hdfs().delete(p, recursive))));
    kinds.add(Combinators.combine(who, paths(), paths()).as((su, a, b) ->
        new Call("rename " + a + " " + b, su, n -> n.hdfs().rename(a, b))));
    kinds.add(Combinators.combine(who, paths(), paths(), Arbitraries.of(true, false)).as((su, a, b, overwrite) ->
        new Call("rename2 " + a + " " + b + " " + overwrite, su, n -> {
          n.hdfs().rename2(a, b, overwrite ? new Options.Rename[] {Options.Rename.OVERWRITE} : new Options.Rename[0]);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("getFileInfo " + p, su,
        n -> n.hdfs().getFileInfo(p))));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("getFileLinkInfo " + p, su,
        n -> n.hdfs().getFileLinkInfo(p))));
    kinds.add(Combinators.combine(who, paths(), Arbitraries.strings().ofMaxLength(6), Arbitraries.of(true, false))
        .as((su, p, after, locations) -> new Call("getListing " + p + " after " + after, su,
            n -> n.hdfs().getListing(p, after.getBytes(StandardCharsets.UTF_8), locations))));
    kinds.add(Combinators.combine(who, paths(), longs(), longs()).as((su, p, offset, length) ->
        new Call("getBlockLocations " + p + " " + offset + " " + length, su,
            n -> n.hdfs().getBlockLocations(p, offset, length))));
    kinds.add(Combinators.combine(who, paths(), shorts()).as((su, p, perm) -> new Call("setPermission " + p + " "
        + perm, su, n -> {
          n.hdfs().setPermission(p, new FsPermission(perm));
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), names(), names()).as((su, p, owner, group) ->
        new Call("setOwner " + p + " " + owner + ":" + group, su, n -> {
          n.hdfs().setOwner(p, owner.isEmpty() ? null : owner, group.isEmpty() ? null : group);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), shorts()).as((su, p, replication) ->
        new Call("setReplication " + p + " " + replication, su, n -> n.hdfs().setReplication(p, replication))));
    kinds.add(Combinators.combine(who, paths(), longs(), longs()).as((su, p, mtime, atime) ->
        new Call("setTimes " + p + " " + mtime + " " + atime, su, n -> {
          n.hdfs().setTimes(p, mtime, atime);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), longs(), longs()).as((su, p, namespace, space) ->
        new Call("setQuota " + p + " " + namespace + " " + space, su, n -> {
          n.hdfs().setQuota(p, namespace, space, null);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("getContentSummary " + p, su,
        n -> n.hdfs().getContentSummary(p))));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("getQuotaUsage " + p, su,
        n -> n.hdfs().getQuotaUsage(p))));
    kinds.add(Combinators.combine(who, paths(), paths().list().ofMaxSize(3)).as((su, target, sources) ->
        new Call("concat " + target + " " + sources, su, n -> {
          n.hdfs().concat(target, sources.toArray(new String[0]));
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), longs(), clients()).as((su, p, length, client) ->
        new Call("truncate " + p + " " + length, su, n -> n.hdfs().truncate(p, length, client))));
    kinds.add(Combinators.combine(who, paths(), paths(), Arbitraries.of(true, false)).as((su, target, link, parents) ->
        new Call("createSymlink " + target + " " + link, su, n -> {
          n.hdfs().createSymlink(target, link, new FsPermission((short) 0777), parents);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), xattrs(), Arbitraries.of(true, false)).as((su, p, xattr, replace) ->
        new Call("setXAttr " + p + " " + xattr, su, n -> {
          n.hdfs().setXAttr(p, xattr, replace ? EnumSet.of(XAttrSetFlag.REPLACE) : EnumSet.of(XAttrSetFlag.CREATE));
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), xattrs().list().ofMaxSize(2)).as((su, p, xattrs) ->
        new Call("getXAttrs " + p + " " + xattrs, su, n -> n.hdfs().getXAttrs(p, xattrs))));
    kinds.add(Combinators.combine(who, paths(), xattrs()).as((su, p, xattr) -> new Call("removeXAttr " + p + " "
        + xattr, su, n -> {
          n.hdfs().removeXAttr(p, xattr);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("listXAttrs " + p, su,
        n -> n.hdfs().listXAttrs(p))));
    kinds.add(Combinators.combine(who, paths(), acls()).as((su, p, acl) -> new Call("modifyAclEntries " + p + " "
        + acl, su, n -> {
          n.hdfs().modifyAclEntries(p, acl);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), acls()).as((su, p, acl) -> new Call("setAcl " + p + " " + acl, su,
        n -> {
          n.hdfs().setAcl(p, acl);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), acls()).as((su, p, acl) -> new Call("removeAclEntries " + p + " "
        + acl, su, n -> {
          n.hdfs().removeAclEntries(p, acl);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("getAclStatus " + p, su,
        n -> n.hdfs().getAclStatus(p))));
    kinds.add(Combinators.combine(who, paths(), Arbitraries.of("HOT", "COLD", "ALL_SSD", "", "NOPE")).as(
        (su, p, policy) -> new Call("setStoragePolicy " + p + " " + policy, su, n -> {
          n.hdfs().setStoragePolicy(p, policy);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths(), clients(), blocks(), longs()).as((su, p, client, previous, fileId) ->
        new Call("addBlock " + p + " previous " + previous + " file " + fileId, su, n -> n.hdfs().addBlock(p, client,
            previous, new DatanodeInfo[0], fileId, new String[0], null))));
    kinds.add(Combinators.combine(who, paths(), clients(), blocks(), longs()).as((su, p, client, last, fileId) ->
        new Call("complete " + p + " last " + last + " file " + fileId, su, n -> n.hdfs().complete(p, client, last,
            fileId))));
    kinds.add(Combinators.combine(who, paths(), clients(), blocks(), longs()).as((su, p, client, block, fileId) ->
        new Call("abandonBlock " + block + " " + p + " file " + fileId, su, n -> {
          n.hdfs().abandonBlock(block, fileId, p, client);
          return null;
        })));
    kinds.add(Combinators.combine(who, blocks(), clients()).as((su, block, client) ->
        new Call("updateBlockForPipeline " + block, su, n -> n.hdfs().updateBlockForPipeline(block, client))));
    kinds.add(Combinators.combine(who, paths(), longs(), clients(), longs()).as((su, p, fileId, client, length) ->
        new Call("fsync " + p + " file " + fileId + " length " + length, su, n -> {
          n.hdfs().fsync(p, fileId, client, length);
          return null;
        })));
    kinds.add(Combinators.combine(who, clients()).as((su, client) -> new Call("renewLease " + client, su, n -> {
      n.hdfs().renewLease(client, List.of());
      return null;
    })));
    kinds.add(Combinators.combine(who, paths(), clients()).as((su, p, client) ->
        new Call("recoverLease " + p, su, n -> n.hdfs().recoverLease(p, client))));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("isFileClosed " + p, su,
        n -> n.hdfs().isFileClosed(p))));
    kinds.add(Combinators.combine(who, paths(), Arbitraries.of(FsAction.class)).as((su, p, action) ->
        new Call("checkAccess " + p + " " + action, su, n -> {
          n.hdfs().checkAccess(p, action);
          return null;
        })));
    kinds.add(Combinators.combine(who, paths()).as((su, p) -> new Call("getPreferredBlockSize " + p, su,
        n -> n.hdfs().getPreferredBlockSize(p))));
    kinds.add(Combinators.combine(who, paths(), Arbitraries.of(true, false)).as((su, p, needToken) ->
        new Call("getLocatedFileInfo " + p, su, n -> n.hdfs().getLocatedFileInfo(p, needToken))));
    // Canopy's own calls (design 016): a small file closed with its bytes, read with its blocks, a client's location
    kinds.add(Combinators.combine(who, paths(), clients(), longs(), longs(),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(2048)).as((su, p, client, fileId, at, data) ->
            new Call("completeSmall " + p + " file " + fileId + " at " + at + " " + (data == null ? "null"
                : data.length + " bytes"), su, n -> n.canopy().completeSmall(p, client, fileId, at, data))));
    kinds.add(Combinators.combine(who, paths(), longs(), longs()).as((su, p, offset, length) ->
        new Call("readSmallFile " + p + " " + offset + " " + length, su,
            n -> n.canopy().readSmallFile(p, offset, length))));
    kinds.add(Combinators.combine(who, Arbitraries.of("/zone-a/rack-1", "", "/", "no-slash", "/a/b/c/d/e",
        "x".repeat(5000))).as((su, location) -> new Call("declareLocation " + location, su, n -> {
          n.canopy().declareLocation(location);
          return null;
        })));
    return Arbitraries.oneOf(kinds);
  }
}

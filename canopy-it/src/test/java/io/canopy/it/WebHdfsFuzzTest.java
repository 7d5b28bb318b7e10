package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.web.resources.DeleteOpParam;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.PostOpParam;
import org.apache.hadoop.hdfs.web.resources.PutOpParam;

/**
 * Generated WebHDFS requests (jqwik): HDFS's operations and made-up ones, under every HTTP method, with parameters of
 * HDFS's names and others, valid and absurd values, as the superuser, a plain user or nobody. Every request is
 * answered within a bound, never with a server error (HTTP 500: what the namenode's WebHDFS meant to refuse it
 * answers 400, 403 or 404, as HDFS does) and never with the database's words; the metadata's invariants hold after
 * each sequence. Data operations stop at their redirect ({@code noredirect} or not followed).
 */
class WebHdfsFuzzTest {
  private static final List<String> OPS = List.of("LISTSTATUS", "LISTSTATUS_BATCH", "GETFILESTATUS",
      "GETCONTENTSUMMARY", "GETQUOTAUSAGE", "GETFILECHECKSUM", "GETHOMEDIRECTORY", "GETACLSTATUS", "GETXATTRS",
      "LISTXATTRS", "CHECKACCESS", "GETSTORAGEPOLICY", "GETTRASHROOT", "OPEN", "MKDIRS", "RENAME", "SETPERMISSION",
      "SETOWNER", "SETREPLICATION", "SETTIMES", "CREATE", "CREATESYMLINK", "SETACL", "MODIFYACLENTRIES",
      "REMOVEACLENTRIES", "REMOVEDEFAULTACL", "REMOVEACL", "SETXATTR", "REMOVEXATTR", "SETSTORAGEPOLICY",
      "SETQUOTA", "APPEND", "CONCAT", "TRUNCATE", "UNSETSTORAGEPOLICY", "DELETE", "GETDELEGATIONTOKEN",
      "RENEWDELEGATIONTOKEN", "CANCELDELEGATIONTOKEN", "CREATESNAPSHOT", "GETSERVERDEFAULTS", "NOPE", "", "open");
  private static final List<HttpOpParam.Op> HDFS_OPS = java.util.stream.Stream.of(GetOpParam.Op.values(),
      PutOpParam.Op.values(), PostOpParam.Op.values(), DeleteOpParam.Op.values()).flatMap(java.util.Arrays::stream)
      .map(op -> (HttpOpParam.Op) op).filter(op -> !op.toString().equals("NULL")).toList();
  private static final List<String> PARAMETERS = List.of("destination", "permission", "owner", "group",
      "replication", "modificationtime", "accesstime", "recursive", "overwrite", "blocksize", "buffersize", "offset",
      "length", "newlength", "sources", "aclspec", "xattr.name", "xattr.value", "xattr.encoding", "flag",
      "storagepolicy", "namespacequota", "storagespacequota", "fsaction", "startAfter", "noredirect", "doas",
      "createparent", "renewer", "token", "snapshotname", "unmaskedpermission", "excludedatanodes", "ugi", "bogus");
  private static final List<String> LEAKS = List.of("PSQLException", "org.postgresql", "SQLState", "SQLSTATE",
      "io.canopy.metadata", "StoreException", "duplicate key", "violates");
  private static final int TIMEOUT_MS = 60_000;

  private static Path directory;
  private static MiniCanopyCluster cluster;
  private static MetadataStore store;
  private static String base;

  @BeforeContainer
  static void start() throws Exception {
    directory = Files.createTempDirectory("canopy-" + WebHdfsFuzzTest.class.getSimpleName());
    cluster = MiniCanopyCluster.start(directory, MiniCanopyCluster.testConfiguration(), 1, 1);
    store = cluster.openStore();
    DistributedFileSystem admin = cluster.fileSystem();
    admin.mkdirs(new org.apache.hadoop.fs.Path("/wf/d"));
    admin.setPermission(new org.apache.hadoop.fs.Path("/wf"), new FsPermission((short) 0777));
    TestFiles.write(admin, new org.apache.hadoop.fs.Path("/wf/f"), TestFiles.randomBytes(2000, 1), 1024 * 1024);
    base = "http://127.0.0.1:" + cluster.nameNode(0).httpAddress().getPort() + "/webhdfs/v1";
  }

  @AfterContainer
  static void stop() throws Exception {
    try (AutoCloseable deletion = () -> FileUtil.fullyDelete(directory.toFile()); AutoCloseable c = cluster;
        AutoCloseable s = store) {
      base = null;
    }
  }

  /** One request: method, path and query, as sent. */
  private record Request(String method, String path, String query) {
  }

  @Property(tries = 300, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.MIXIN)
  void generatedRequestsAreAnsweredOrRefusedNeverFailed(@ForAll("sequences") List<Request> requests)
      throws Exception {
    for (Request request : requests) {
      int status = send(request);
      Statistics.label("status").collect(status);
    }
    // the generator reaches past the parsing: some requests are carried out, some redirected to a datanode
    Statistics.label("status").coverage(checker -> {
      checker.check(200).percentage(share -> share > 5);
      checker.check(307).percentage(share -> share > 1);
    });
    assertEquals(List.of(), NamespaceInvariants.violations(store), "after " + requests);
  }

  /** The status of {@code request}; fails on a server error or the database's words in the answer. */
  private static int send(Request request) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL(base + request.path() + "?" + request.query())
        .openConnection();
    try {
      connection.setRequestMethod(request.method());
      connection.setInstanceFollowRedirects(false);
      connection.setConnectTimeout(TIMEOUT_MS);
      connection.setReadTimeout(TIMEOUT_MS);
      if (request.method().equals("PUT") || request.method().equals("POST")) {
        connection.setDoOutput(true);
        connection.getOutputStream().close();
      }
      int status = connection.getResponseCode();
      InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      String text = body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8);
      if (status >= 500) {
        throw new AssertionError("HTTP " + status + " for " + request + ": " + text);
      }
      for (String leak : LEAKS) {
        if (text.contains(leak)) {
          throw new AssertionError("the database's words in the answer to " + request + ": " + text);
        }
      }
      return status;
    } finally {
      connection.disconnect();
    }
  }

  @Provide
  Arbitrary<List<Request>> sequences() {
    return requests().list().ofMinSize(1).ofMaxSize(10);
  }

  private static Arbitrary<String> values() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of("true", "false", "0", "1", "-1", "755", "1777", "9999999999999999999", "/wf/g",
            "/wf/d", "wf", "alice", "user:alice:rwx", "user::rw-,group::r--,other::---", "default:user:x:rwx",
            "user.a", "0x41", "TEXT", "BASE64", "CREATE", "REPLACE", "HOT", "COLD", "READ", "rwx", "-x-", "",
            "%", "%ZZ", "a&b", "../..", "\u0000")),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(30)),
        Tuple.of(1, Arbitraries.longs().map(String::valueOf)));
  }

  private static Arbitrary<Request> requests() {
    Arbitrary<String> method = Arbitraries.of("GET", "PUT", "POST", "DELETE");
    Arbitrary<String> path = Arbitraries.of("/wf/f", "/wf/d", "/wf", "/", "/wf/g", "/wf/d/new", "/wf/f/under",
        "/wf/%2Fx", "/wf/a%20b", "/wf/..", "//wf", "/.reserved/.inodes/16385", "/wf/" + "x".repeat(300), "");
    Arbitrary<String> user = Arbitraries.of("", "user.name=" + System.getProperty("user.name"),
        "user.name=alice", "user.name=", "user.name=a%20b", "user.name=" + "y".repeat(200));
    Arbitrary<String> parameters = Combinators.combine(Arbitraries.of(PARAMETERS), values())
        .as((name, value) -> name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)).list().ofMaxSize(5)
        .map(list -> String.join("&", list));
    // mostly an operation under its own method (HDFS's enums say which), sometimes any under any
    Arbitrary<Tuple.Tuple2<String, String>> matched = Arbitraries.of(HDFS_OPS)
        .map(op -> Tuple.of(op.getType().name(), op.toString()));
    Arbitrary<Tuple.Tuple2<String, String>> any = Combinators.combine(method, Arbitraries.of(OPS)).as(Tuple::of);
    Arbitrary<Tuple.Tuple2<String, String>> operation = Arbitraries.frequencyOf(Tuple.of(4, matched),
        Tuple.of(1, any));
    return Combinators.combine(operation, path, user, parameters)
        .as((op, p, u, rest) -> new Request(op.get1(), p, String.join("&", List.of("op=" + op.get2(), u, rest,
            "noredirect=" + (p.length() % 2 == 0)))));
  }
}

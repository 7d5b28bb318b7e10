package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.JsonSerialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * WebHDFS on the namenode's HTTP server, through Hadoop's own {@link WebHdfsFileSystem} (data calls redirected to
 * the stock DataNodes' WebHDFS) and as raw HTTP, answers and errors compared with HDFS's formats.
 */
@Timeout(300)
class WebHdfsTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  static {
    FileSystem.enableSymlinks(); // the client's switch, as in HDFS's and Canopy's symlink tests
  }

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true)).nameNodes(1).dataNodes(3).build();

  private static WebHdfsFileSystem web;

  @BeforeAll
  static void openWebHdfs() throws IOException {
    web = (WebHdfsFileSystem) FileSystem.newInstance(webUri(), new Configuration(CLUSTER.cluster().conf()));
  }

  @AfterAll
  static void closeWebHdfs() throws IOException {
    if (web != null) {
      web.close();
    }
  }

  private static URI webUri() {
    InetSocketAddress http = CLUSTER.cluster().nameNode(0).httpAddress();
    return URI.create("webhdfs://127.0.0.1:" + http.getPort());
  }

  private static String httpBase() {
    return "http://127.0.0.1:" + CLUSTER.cluster().nameNode(0).httpAddress().getPort();
  }

  @Test
  void filesWrittenThroughWebHdfsReadBackThroughBothProtocols() throws Exception {
    Path path = new Path("/web/rw/multi-block");
    byte[] data = TestFiles.randomBytes(2 * BLOCK_SIZE + 17, 1);
    try (FSDataOutputStream out = web.create(path, FsPermission.getFileDefault(), true, 4096, (short) 2, BLOCK_SIZE,
        null)) {
      out.write(data);
    }
    assertArrayEquals(data, TestFiles.read(web, path));
    assertArrayEquals(data, TestFiles.read(CLUSTER.fileSystem(), path));
    FileStatus status = web.getFileStatus(path);
    assertEquals(data.length, status.getLen());
    assertEquals(2, status.getReplication());
    assertEquals(BLOCK_SIZE, status.getBlockSize());
    assertEquals(3, web.getFileBlockLocations(status, 0, data.length).length);
    assertEquals(CLUSTER.fileSystem().getFileChecksum(path), web.getFileChecksum(path),
        "the datanodes compute the checksum HDFS's client does");

    byte[] more = TestFiles.randomBytes(1000, 2);
    try (FSDataOutputStream out = web.append(path)) {
      out.write(more);
    }
    byte[] appended = new byte[data.length + more.length];
    System.arraycopy(data, 0, appended, 0, data.length);
    System.arraycopy(more, 0, appended, data.length, more.length);
    assertArrayEquals(appended, TestFiles.read(CLUSTER.fileSystem(), path));

    try (var in = web.open(path)) {
      in.seek(BLOCK_SIZE + 5);
      byte[] part = new byte[100];
      in.readFully(part);
      byte[] expected = new byte[100];
      System.arraycopy(data, BLOCK_SIZE + 5, expected, 0, 100);
      assertArrayEquals(expected, part, "a read from an offset is redirected to that block's datanode");
    }
  }

  @Test
  void aFileKeptInTheDatabaseIsReadThroughADatanode() throws Exception {
    Path path = new Path("/web/small/one");
    byte[] data = TestFiles.randomBytes(3000, 3);
    TestFiles.write(CLUSTER.fileSystem(), path, data); // Canopy's client: kept in the database
    assertArrayEquals(data, TestFiles.read(web, path));
    assertEquals(CLUSTER.fileSystem().getFileChecksum(path), web.getFileChecksum(path));
    byte[] empty = new byte[0];
    TestFiles.write(CLUSTER.fileSystem(), new Path("/web/small/empty"), empty);
    assertArrayEquals(empty, TestFiles.read(web, new Path("/web/small/empty")));
  }

  @Test
  void namespaceCallsMatchTheRpcView() throws Exception {
    Path dir = new Path("/web/ns");
    assertTrue(web.mkdirs(new Path(dir, "a/b"), new FsPermission((short) 0750)));
    TestFiles.write(CLUSTER.fileSystem(), new Path(dir, "a/f1"), TestFiles.randomBytes(10, 4));
    FileStatus[] listing = web.listStatus(new Path(dir, "a"));
    assertEquals(2, listing.length);
    assertEquals("b", listing[0].getPath().getName());
    assertTrue(listing[0].isDirectory());
    assertEquals((short) 0750, listing[0].getPermission().toShort());
    assertEquals("f1", listing[1].getPath().getName());
    assertEquals(10, listing[1].getLen());

    assertTrue(web.rename(new Path(dir, "a/f1"), new Path(dir, "a/f2")));
    assertTrue(CLUSTER.fileSystem().exists(new Path(dir, "a/f2")));
    web.setPermission(new Path(dir, "a/f2"), new FsPermission((short) 0600));
    assertEquals((short) 0600, CLUSTER.fileSystem().getFileStatus(new Path(dir, "a/f2")).getPermission().toShort());
    web.setOwner(new Path(dir, "a/f2"), "alice", "staff");
    assertEquals("alice", CLUSTER.fileSystem().getFileStatus(new Path(dir, "a/f2")).getOwner());
    assertTrue(web.setReplication(new Path(dir, "a/f2"), (short) 2));
    web.setTimes(new Path(dir, "a/f2"), 1_000_000L, 2_000_000L);
    FileStatus times = CLUSTER.fileSystem().getFileStatus(new Path(dir, "a/f2"));
    assertEquals(1_000_000L, times.getModificationTime());
    assertEquals(2_000_000L, times.getAccessTime());

    ContentSummary summary = web.getContentSummary(dir);
    assertEquals(CLUSTER.fileSystem().getContentSummary(dir).getLength(), summary.getLength());
    assertEquals(3, summary.getDirectoryCount());
    assertEquals(1, summary.getFileCount());

    web.setXAttr(new Path(dir, "a"), "user.color", "green".getBytes(StandardCharsets.UTF_8),
        java.util.EnumSet.of(XAttrSetFlag.CREATE));
    assertEquals("green", new String(CLUSTER.fileSystem().getXAttr(new Path(dir, "a"), "user.color"),
        StandardCharsets.UTF_8));
    assertEquals(List.of("user.color"), web.listXAttrs(new Path(dir, "a")));
    assertArrayEquals("green".getBytes(StandardCharsets.UTF_8), web.getXAttrs(new Path(dir, "a")).get("user.color"));
    web.removeXAttr(new Path(dir, "a"), "user.color");
    assertTrue(CLUSTER.fileSystem().getXAttrs(new Path(dir, "a")).isEmpty());

    List<AclEntry> acl = AclEntry.parseAclSpec("user:bob:r-x", true);
    web.modifyAclEntries(new Path(dir, "a"), acl);
    assertEquals(CLUSTER.fileSystem().getAclStatus(new Path(dir, "a")), web.getAclStatus(new Path(dir, "a")));
    assertTrue(web.getAclStatus(new Path(dir, "a")).getEntries().contains(acl.get(0)),
        web.getAclStatus(new Path(dir, "a")).toString());
    web.removeAcl(new Path(dir, "a"));
    assertTrue(CLUSTER.fileSystem().getAclStatus(new Path(dir, "a")).getEntries().isEmpty());

    assertFalse(web.delete(new Path(dir, "missing"), false));
    assertTrue(web.delete(new Path(dir, "a"), true));
    assertFalse(CLUSTER.fileSystem().exists(new Path(dir, "a")));
    assertThrows(FileNotFoundException.class, () -> web.getFileStatus(new Path(dir, "a")));
    assertEquals(new Path("/user/" + UserGroupInformation.getCurrentUser().getShortUserName()),
        Path.getPathWithoutSchemeAndAuthority(web.getHomeDirectory()));
  }

  @Test
  void truncateAndConcatReachTheNamespace() throws Exception {
    Path target = new Path("/web/concat/target");
    byte[] first = TestFiles.randomBytes(BLOCK_SIZE, 5);
    byte[] second = TestFiles.randomBytes(BLOCK_SIZE, 6);
    TestFiles.write(web, target, first, BLOCK_SIZE);
    TestFiles.write(web, new Path("/web/concat/source"), second, BLOCK_SIZE);
    web.concat(target, new Path[] {new Path("/web/concat/source")});
    assertEquals(2L * BLOCK_SIZE, CLUSTER.fileSystem().getFileStatus(target).getLen());
    assertFalse(CLUSTER.fileSystem().exists(new Path("/web/concat/source")));
    assertTrue(web.truncate(target, BLOCK_SIZE), "a cut at a block boundary is done at once");
    assertArrayEquals(first, TestFiles.read(CLUSTER.fileSystem(), target));
  }

  @Test
  void theCallersUserNameActsAndIsChecked() throws Exception {
    CLUSTER.fileSystem().mkdirs(new Path("/web/users"));
    CLUSTER.fileSystem().setPermission(new Path("/web/users"), new FsPermission((short) 0777));
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem fs = FileSystem.newInstance(webUri(), new Configuration(CLUSTER.cluster().conf()))) {
        fs.mkdirs(new Path("/web/users/alice"), new FsPermission((short) 0700));
        TestFiles.write(fs, new Path("/web/users/alice/note"), TestFiles.randomBytes(50, 7));
      }
      return null;
    });
    FileStatus note = CLUSTER.fileSystem().getFileStatus(new Path("/web/users/alice/note"));
    assertEquals("alice", note.getOwner());
    UserGroupInformation bob = UserGroupInformation.createUserForTesting("bob", new String[] {"other"});
    AccessControlException denied = assertThrows(AccessControlException.class, () -> bob.doAs(
        (PrivilegedExceptionAction<FileStatus[]>) () -> {
          try (FileSystem fs = FileSystem.newInstance(webUri(), new Configuration(CLUSTER.cluster().conf()))) {
            return fs.listStatus(new Path("/web/users/alice"));
          }
        }));
    assertTrue(denied.getMessage().contains("user=bob"), denied.getMessage());

    HttpURLConnection raw = call("GET", "/webhdfs/v1/web/users/alice?op=LISTSTATUS&user.name=bob");
    assertEquals(403, raw.getResponseCode());
    Map<String, Object> error = remoteException(raw);
    assertEquals("AccessControlException", error.get("exception"));
    assertEquals("org.apache.hadoop.security.AccessControlException", error.get("javaClassName"));
    raw = call("GET", "/webhdfs/v1/web/users/alice?op=LISTSTATUS&user.name=alice");
    assertEquals(200, raw.getResponseCode());
    String listing = read(raw);
    assertTrue(listing.startsWith("{\"FileStatuses\":{\"FileStatus\":["), listing);
    assertTrue(listing.contains("\"pathSuffix\":\"note\""), listing);
  }

  @Test
  void rawRequestsGetHdfsStatusesAndDocuments() throws Exception {
    HttpURLConnection missing = call("GET", "/webhdfs/v1/web/nothing/here?op=GETFILESTATUS");
    assertEquals(404, missing.getResponseCode());
    Map<String, Object> error = remoteException(missing);
    assertEquals("FileNotFoundException", error.get("exception"));
    assertEquals("java.io.FileNotFoundException", error.get("javaClassName"));
    assertTrue(String.valueOf(error.get("message")).contains("/web/nothing/here"), error.toString());

    HttpURLConnection badOp = call("GET", "/webhdfs/v1/?op=NOSUCHOP");
    assertEquals(400, badOp.getResponseCode());
    assertEquals("IllegalArgumentException", remoteException(badOp).get("exception"));
    HttpURLConnection wrongMethod = call("PUT", "/webhdfs/v1/web?op=LISTSTATUS");
    assertEquals(400, wrongMethod.getResponseCode());
    HttpURLConnection badValue = call("PUT", "/webhdfs/v1/web/x?op=MKDIRS&permission=999");
    assertEquals(400, badValue.getResponseCode());
    assertTrue(String.valueOf(remoteException(badValue).get("message"))
        .startsWith("Invalid value for webhdfs parameter \"permission\""), remoteException(
            call("PUT", "/webhdfs/v1/web/x?op=MKDIRS&permission=999")).toString());

    CLUSTER.fileSystem().mkdirs(new Path("/web/raw"));
    CLUSTER.fileSystem().setPermission(new Path("/web/raw"), new FsPermission((short) 0777));
    HttpURLConnection mkdirs = call("PUT", "/webhdfs/v1/web/raw/dir?op=MKDIRS&permission=711&user.name=carol");
    assertEquals(200, mkdirs.getResponseCode());
    assertEquals("{\"boolean\":true}", read(mkdirs).trim());
    assertEquals("carol", CLUSTER.fileSystem().getFileStatus(new Path("/web/raw/dir")).getOwner());
    assertEquals((short) 0711, CLUSTER.fileSystem().getFileStatus(new Path("/web/raw/dir")).getPermission()
        .toShort());

    HttpURLConnection create = call("PUT", "/webhdfs/v1/web/raw/file?op=CREATE&overwrite=true&user.name=carol");
    assertEquals(307, create.getResponseCode());
    URI location = URI.create(create.getHeaderField("Location"));
    assertEquals("/webhdfs/v1/web/raw/file", location.getPath());
    assertTrue(location.getQuery().contains("namenoderpcaddress=127.0.0.1:"
        + CLUSTER.cluster().nameNode(0).address().getPort()), location.toString());
    assertTrue(location.getQuery().contains("user.name=carol"), location.toString());
    boolean datanodePort = CLUSTER.cluster().dataNodes().stream()
        .anyMatch(datanode -> datanode.getInfoPort() == location.getPort());
    assertTrue(datanodePort, "redirected to a datanode's HTTP port: " + location);

    HttpURLConnection noRedirect = call("GET", "/webhdfs/v1/web/raw/file?op=OPEN&noredirect=true");
    assertEquals(404, noRedirect.getResponseCode(), "not written yet");
    HttpURLConnection home = call("GET", "/webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=dave");
    assertEquals("{\"Path\":\"/user/dave\"}", read(home).trim());
    HttpURLConnection anonymous = call("GET", "/webhdfs/v1/?op=GETHOMEDIRECTORY");
    assertEquals("{\"Path\":\"/user/dr.who\"}", read(anonymous).trim(), "HDFS's static web user");
  }

  @Test
  void theOtherOperationsAnswerAsTheirRpcCalls() throws Exception {
    Path dir = new Path("/web/other");
    web.mkdirs(dir);
    TestFiles.write(CLUSTER.fileSystem(), new Path(dir, "f"), TestFiles.randomBytes(100, 8));
    web.setQuota(dir, 100, 10L << 30);
    assertEquals(100, web.getQuotaUsage(dir).getQuota());
    assertEquals(100, CLUSTER.fileSystem().getQuotaUsage(dir).getQuota());
    web.access(new Path(dir, "f"), org.apache.hadoop.fs.permission.FsAction.READ);
    assertTrue(web.getStatus().getCapacity() > 0);
    assertEquals(CLUSTER.fileSystem().getServerDefaults(new Path("/")).getBlockSize(),
        web.getServerDefaults().getBlockSize());
    assertEquals("/user/" + UserGroupInformation.getCurrentUser().getShortUserName() + "/.Trash",
        Path.getPathWithoutSchemeAndAuthority(web.getTrashRoot(dir)).toString());

    web.createSymlink(new Path(dir, "f"), new Path(dir, "link"), false);
    assertEquals(new Path(dir, "f"), Path.getPathWithoutSchemeAndAuthority(web.getLinkTarget(new Path(dir, "link"))));
    assertTrue(web.getFileLinkStatus(new Path(dir, "link")).isSymlink());

    assertTrue(web.getAllStoragePolicies().stream().anyMatch(policy -> policy.getName().equals("HOT")));
    web.setStoragePolicy(dir, "COLD");
    assertEquals("COLD", web.getStoragePolicy(dir).getName());
    web.unsetStoragePolicy(dir);
    assertEquals("HOT", CLUSTER.fileSystem().getStoragePolicy(dir).getName());

    web.setAcl(dir, AclEntry.parseAclSpec("user::rwx,group::r-x,other::---,user:carol:rwx,default:user:carol:r-x",
        true));
    assertEquals(CLUSTER.fileSystem().getAclStatus(dir), web.getAclStatus(dir));
    web.removeAclEntries(dir, AclEntry.parseAclSpec("user:carol", false));
    web.removeDefaultAcl(dir);
    List<AclEntry> left = CLUSTER.fileSystem().getAclStatus(dir).getEntries();
    assertTrue(left.stream().noneMatch(entry -> "carol".equals(entry.getName())
        || entry.getScope() == org.apache.hadoop.fs.permission.AclEntryScope.DEFAULT), left.toString());

    TestFiles.write(CLUSTER.fileSystem(), new Path(dir, "g"), TestFiles.randomBytes(10, 9));
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    HttpURLConnection rename = call("PUT", "/webhdfs/v1/web/other/g?op=RENAME&destination=/web/other/f"
        + "&renameoptions=OVERWRITE&user.name=" + me);
    assertEquals(200, rename.getResponseCode(), read(rename));
    assertEquals(10, CLUSTER.fileSystem().getFileStatus(new Path(dir, "f")).getLen(), "rename2 with OVERWRITE");

    HttpURLConnection snapshot = call("PUT", "/webhdfs/v1/web/other?op=CREATESNAPSHOT&snapshotname=s1&user.name="
        + me);
    assertEquals(403, snapshot.getResponseCode());
    assertEquals("SnapshotException", remoteException(snapshot).get("exception"), "refused as over RPC");
    HttpURLConnection token = call("GET", "/webhdfs/v1/?op=GETDELEGATIONTOKEN");
    assertEquals("{\"Token\":null}", read(token).trim(), "simple authentication: no token, as HDFS answers");
    HttpURLConnection renew = call("PUT", "/webhdfs/v1/?op=RENEWDELEGATIONTOKEN&token=x");
    assertEquals(403, renew.getResponseCode());
    assertTrue(String.valueOf(remoteException(renew).get("message")).contains("security is off"),
        "simple authentication issues no token to renew");
  }

  @Test
  void requestsAreReadAsHdfsReadsThem() throws Exception {
    CLUSTER.fileSystem().mkdirs(new Path("/web/read"));
    CLUSTER.fileSystem().setPermission(new Path("/web/read"), new FsPermission((short) 0777));
    HttpURLConnection ugi = call("PUT", "/webhdfs/v1/web/private-by-ugi?op=MKDIRS&ugi=" + superuser());
    assertEquals(403, ugi.getResponseCode(), "the old ugi parameter is not a user, as in HDFS's WebHDFS");
    assertTrue(String.valueOf(remoteException(ugi).get("message")).contains("user=dr.who"));
    HttpURLConnection badUser = call("GET", "/webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=a%20b");
    assertEquals(400, badUser.getResponseCode(), "HDFS's user-name pattern");

    TestFiles.write(CLUSTER.fileSystem(), new Path("/web/read/src"), TestFiles.randomBytes(10, 10));
    HttpURLConnection rename = call("PUT", "/webhdfs/v1/web/read/src?op=RENAME&destination="
        + java.net.URLEncoder.encode("/web/read/a&b <c>'\"", StandardCharsets.UTF_8) + "&user.name=" + superuser());
    assertEquals(200, rename.getResponseCode(), read(rename));
    assertTrue(CLUSTER.fileSystem().exists(new Path("/web/read/a&b <c>'\"")), "values reach the call unescaped");

    HttpURLConnection upperCase = call("GET", "/webhdfs/v1/web/read?OP=GETFILESTATUS");
    assertEquals(200, upperCase.getResponseCode(), "parameter names are read without case, as in HDFS");
    HttpURLConnection noOp = call("GET", "/webhdfs/v1/web/read");
    assertEquals(400, noOp.getResponseCode());
    assertTrue(String.valueOf(remoteException(noOp).get("message")).contains("NULL is not supported"));
  }

  private static String superuser() throws IOException {
    return UserGroupInformation.getCurrentUser().getShortUserName();
  }

  private static HttpURLConnection call(String method, String pathAndQuery) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL(httpBase() + pathAndQuery).openConnection();
    connection.setRequestMethod(method);
    connection.setInstanceFollowRedirects(false);
    connection.setConnectTimeout(10_000);
    connection.setReadTimeout(30_000);
    return connection;
  }

  private static String read(HttpURLConnection connection) throws IOException {
    try (InputStream in = connection.getResponseCode() >= 400 ? connection.getErrorStream()
        : connection.getInputStream()) {
      return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> remoteException(HttpURLConnection connection) throws IOException {
    assertEquals("application/json", connection.getContentType().split(";")[0]);
    Map<String, Object> document = JsonSerialization.mapReader().readValue(read(connection));
    Object error = document.get("RemoteException");
    assertNotNull(error, document.toString());
    return (Map<String, Object>) error;
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.FSLimitException.PathComponentTooLongException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Every bad input of issue 2: HDFS's exception class, a message naming the path or the limit, and no change to
 * the namespace. Raw ClientProtocol calls send what the stock client would refuse to send.
 */
@Timeout(300)
class BadInputTest {
  private static final FsPermission DIR = new FsPermission((short) 0755);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true)) // so a link's target is checked
      .dataNodes(1).build();
  static DistributedFileSystem fs;
  static ClientProtocol namenode;
  private List<String> before;

  @BeforeAll
  static void clientAndFiles() throws IOException {
    fs = CLUSTER.fileSystem();
    namenode = fs.getClient().getNamenode();
    fs.mkdirs(new org.apache.hadoop.fs.Path("/dir/sub"));
    fs.mkdirs(new org.apache.hadoop.fs.Path("/full/child"));
    try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/dir/file"))) {
      out.write(new byte[] {1, 2, 3});
    }
  }

  @BeforeEach
  void snapshot() throws IOException {
    before = namespace();
  }

  @AfterEach
  void namespaceUnchangedAndNamenodeAlive() throws IOException {
    assertEquals(before, namespace(), "a rejected call changed the namespace");
    assertNotNull(namenode.getFileInfo("/"), "the namenode must still answer");
  }

  /** Every path with its type, length, permission and owner: what a failed call must not change. */
  private static List<String> namespace() throws IOException {
    List<String> entries = new ArrayList<>();
    collect(new org.apache.hadoop.fs.Path("/"), entries);
    return entries;
  }

  private static void collect(org.apache.hadoop.fs.Path dir, List<String> entries) throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      entries.add(status.getPath().toUri().getPath() + (status.isDirectory() ? "/" : "") + " " + status.getLen()
          + " " + status.getPermission() + " " + status.getOwner() + " " + status.getReplication());
      if (status.isDirectory()) {
        collect(status.getPath(), entries);
      }
    }
  }

  /** A call refused by the namenode with {@code exceptionClass} and a message containing {@code text}. */
  private static void assertRemote(Class<?> exceptionClass, String text, Executable call) {
    RemoteException error = assertThrows(RemoteException.class, call);
    assertEquals(exceptionClass.getName(), error.getClassName(), error.getMessage());
    assertTrue(error.getMessage().contains(text), "message '" + error.getMessage() + "' lacks '" + text + "'");
  }

  private static <T extends Throwable> void assertClient(Class<T> exceptionClass, String text, Executable call) {
    T error = assertThrows(exceptionClass, call);
    assertTrue(String.valueOf(error.getMessage()).contains(text),
        "message '" + error.getMessage() + "' lacks '" + text + "'");
  }

  private static EnumSetWritable<CreateFlag> createFlags() {
    return new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
  }

  @Test
  void relativePath() {
    assertRemote(org.apache.hadoop.fs.InvalidPathException.class, "relative/x",
        () -> namenode.mkdirs("relative/x", DIR, true));
  }

  @Test
  void dotAndDotDotComponents() {
    assertRemote(org.apache.hadoop.fs.InvalidPathException.class, "/dir/./x",
        () -> namenode.mkdirs("/dir/./x", DIR, true));
    assertRemote(org.apache.hadoop.fs.InvalidPathException.class, "/dir/../x",
        () -> namenode.mkdirs("/dir/../x", DIR, true));
  }

  @Test
  void emptyComponent() {
    assertRemote(org.apache.hadoop.fs.InvalidPathException.class, "/dir//x",
        () -> namenode.mkdirs("/dir//x", DIR, true));
  }

  @Test
  void colonInComponent() {
    assertRemote(org.apache.hadoop.fs.InvalidPathException.class, "/dir/a:b",
        () -> namenode.create("/dir/a:b", DIR, "client", createFlags(), true, (short) 1, 1024, CryptoProtocolVersion.supported(), null, null));
  }

  @Test
  void nameOverTheComponentLimit() {
    String name = "n".repeat(256);
    // DFSClient does not unwrap this class (neither against HDFS): it arrives as a RemoteException naming it
    assertRemote(PathComponentTooLongException.class, "in directory /dir is exceeded: limit=255 length=256",
        () -> fs.mkdirs(new org.apache.hadoop.fs.Path("/dir/" + name)));
    // 86 three-byte characters are 258 bytes: the limit counts bytes, not characters
    assertRemote(PathComponentTooLongException.class, "limit=255 length=258",
        () -> fs.mkdirs(new org.apache.hadoop.fs.Path("/dir/" + "€".repeat(86))));
  }

  @Test
  void createWithoutParentAndWithoutCreateParent() {
    assertClient(FileNotFoundException.class, "/dir/missing",
        () -> fs.createNonRecursive(new org.apache.hadoop.fs.Path("/dir/missing/f"), false, 4096, (short) 1, 1024,
            null).close());
  }

  @Test
  void mkdirUnderAFile() {
    assertClient(ParentNotDirectoryException.class, "/dir/file",
        () -> fs.mkdirs(new org.apache.hadoop.fs.Path("/dir/file/sub")));
  }

  @Test
  void createUnderAFile() {
    assertClient(ParentNotDirectoryException.class, "/dir/file",
        () -> fs.create(new org.apache.hadoop.fs.Path("/dir/file/f")).close());
  }

  /**
   * HDFS's resolvePath: only calls creating the path get ParentNotDirectoryException for a file among its
   * ancestors; every other call gets the same message as an AccessControlException, and getFileInfo (as the
   * superuser) answers "no such file".
   */
  @Test
  void otherCallsUnderAFile() throws IOException {
    assertRemote(org.apache.hadoop.security.AccessControlException.class, "/dir/file (is not a directory)",
        () -> namenode.delete("/dir/file/x", false));
    assertRemote(org.apache.hadoop.security.AccessControlException.class, "/dir/file (is not a directory)",
        () -> namenode.getListing("/dir/file/x", new byte[0], false));
    assertRemote(org.apache.hadoop.security.AccessControlException.class, "/dir/file (is not a directory)",
        () -> namenode.setTimes("/dir/file/x", 0, 0));
    assertEquals(null, namenode.getFileInfo("/dir/file/x"));
    assertFalse(fs.exists(new org.apache.hadoop.fs.Path("/dir/file/x/y")));
    assertRemote(ParentNotDirectoryException.class, "/dir/file (is not a directory)",
        () -> namenode.rename("/dir/sub", "/dir/file/x"));
  }

  @Test
  void createOverExistingFileWithoutOverwrite() {
    assertClient(FileAlreadyExistsException.class, "/dir/file",
        () -> fs.create(new org.apache.hadoop.fs.Path("/dir/file"), false).close());
  }

  @Test
  void createOverADirectory() {
    assertClient(FileAlreadyExistsException.class, "/dir/sub",
        () -> fs.create(new org.apache.hadoop.fs.Path("/dir/sub"), true).close());
  }

  @Test
  void nonRecursiveDeleteOfNonEmptyDirectory() {
    assertClient(PathIsNotEmptyDirectoryException.class, "/full",
        () -> fs.delete(new org.apache.hadoop.fs.Path("/full"), false));
  }

  @Test
  void renameOfRoot() throws IOException {
    assertFalse(fs.rename(new org.apache.hadoop.fs.Path("/"), new org.apache.hadoop.fs.Path("/dir/root")));
    assertRemote(IOException.class, "rename source cannot be the root",
        () -> namenode.rename2("/", "/dir/root"));
  }

  @Test
  void renameIntoItsOwnSubtree() throws IOException {
    assertFalse(fs.rename(new org.apache.hadoop.fs.Path("/dir"), new org.apache.hadoop.fs.Path("/dir/sub/dir")));
    assertRemote(IOException.class, "is a directory or file under source /dir",
        () -> namenode.rename2("/dir", "/dir/sub/dir"));
  }

  @Test
  void renameOntoExistingNonEmptyDirectory() {
    assertRemote(IOException.class, "rename destination directory is not empty: /full",
        () -> namenode.rename2("/dir/sub", "/full", Options.Rename.OVERWRITE));
    assertRemote(FileAlreadyExistsException.class, "rename destination /full already exists",
        () -> namenode.rename2("/dir/sub", "/full"));
  }

  @Test
  void operationsOnMissingPaths() throws IOException {
    org.apache.hadoop.fs.Path missing = new org.apache.hadoop.fs.Path("/nothing/here");
    assertClient(FileNotFoundException.class, "/nothing/here", () -> fs.getFileStatus(missing));
    assertClient(FileNotFoundException.class, "/nothing/here", () -> fs.open(missing).close());
    assertClient(FileNotFoundException.class, "/nothing/here", () -> fs.listStatus(missing));
    assertClient(FileNotFoundException.class, "/nothing/here", () -> fs.getContentSummary(missing));
    assertClient(FileNotFoundException.class, "/nothing/here",
        () -> fs.setPermission(missing, new FsPermission((short) 0700)));
    assertClient(FileNotFoundException.class, "/nothing/here", () -> fs.setOwner(missing, "a", "b"));
    assertClient(FileNotFoundException.class, "/nothing/here", () -> fs.setTimes(missing, 1, 1));
    assertFalse(fs.delete(missing, true));
    assertFalse(fs.setReplication(missing, (short) 2));
    assertFalse(fs.rename(missing, new org.apache.hadoop.fs.Path("/dir/x")));
    assertRemote(FileNotFoundException.class, "rename source /nothing/here is not found",
        () -> namenode.rename2("/nothing/here", "/dir/x"));
  }

  @Test
  void blockLocationsWithNegativeOffsetOrLength() {
    assertRemote(IllegalArgumentException.class, "Negative offset is not supported. File: /dir/file",
        () -> namenode.getBlockLocations("/dir/file", -1, 10));
    assertRemote(IllegalArgumentException.class, "Negative length is not supported. File: /dir/file",
        () -> namenode.getBlockLocations("/dir/file", 0, -5));
  }

  @Test
  void blockLocationsOfADirectory() {
    assertRemote(FileNotFoundException.class, "Path is not a file: /dir",
        () -> namenode.getBlockLocations("/dir", 0, 10));
  }

  @Test
  void replicationOutsideItsRange() {
    assertClient(IOException.class, "less than the required minimum of 1",
        () -> fs.setReplication(new org.apache.hadoop.fs.Path("/dir/file"), (short) 0));
    assertClient(IOException.class, "exceeds maximum of 512",
        () -> fs.setReplication(new org.apache.hadoop.fs.Path("/dir/file"), (short) 513));
    assertRemote(IOException.class, "exceeds maximum of 512 for /dir/new",
        () -> namenode.create("/dir/new", DIR, "client", createFlags(), true, (short) 600, 1024, CryptoProtocolVersion.supported(), null, null));
  }

  @Test
  void writerCallsFromAClientThatHoldsNoLease() {
    assertRemote(org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException.class, "/dir/file",
        () -> namenode.addBlock("/dir/file", "stranger", null, null, 0, null, null));
    assertRemote(org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException.class, "/dir/file",
        () -> namenode.complete("/dir/file", "stranger", new ExtendedBlock("pool", 99, 0, 1), 0));
    assertRemote(IOException.class, "does not belong to any file",
        () -> namenode.updateBlockForPipeline(new ExtendedBlock("pool", 123456789L, 0, 1), "stranger"));
  }

  @Test
  void garbageOnTheRpcPortDoesNotHurtTheNamenode() throws IOException {
    java.net.InetSocketAddress address = CLUSTER.cluster().nameNode(0).address();
    byte[] noise = TestFiles.randomBytes(64 * 1024, 99);
    for (int i = 0; i < 5; i++) {
      try (java.net.Socket socket = new java.net.Socket(address.getAddress(), address.getPort())) {
        socket.getOutputStream().write(noise, 0, 1024 * (i + 1));
        socket.getOutputStream().flush();
      } catch (IOException closedByServer) {
        // the server may hang up mid-write: that is the point
      }
    }
    // a well-formed header followed by a huge declared length
    try (java.net.Socket socket = new java.net.Socket(address.getAddress(), address.getPort())) {
      socket.getOutputStream().write(new byte[] {'h', 'r', 'p', 'c', 9, 0, 0, 0x7f, (byte) 0xff, (byte) 0xff, -1});
    } catch (IOException closedByServer) {
      // fine
    }
    assertNotNull(namenode.getFileInfo("/dir"), "the namenode still serves after garbage on its port");
  }

  @Test
  void unsupportedCallsSayso() {
    assertRemote(UnsupportedOperationException.class, "ClientProtocol.listCachePools is not supported by Canopy",
        () -> namenode.listCachePools(""));
    assertRemote(org.apache.hadoop.hdfs.protocol.SnapshotException.class,
        "Snapshots are not supported by Canopy: createSnapshot /dir", () -> namenode.createSnapshot("/dir", "s1"));
  }

  // ---- issue 12, item 9: what PostgreSQL text cannot hold, and database errors, never reach SQL or a client ----

  private static final String NUL_NAME = "a\0b";

  /** A refusal with {@code exceptionClass}, containing {@code text} and nothing of the database's own words. */
  private static void assertRefusedWithoutSql(Class<?> exceptionClass, String text, Executable call) {
    assertRemote(exceptionClass, text, call);
    assertNoSql(assertThrows(RemoteException.class, call));
  }

  private static void assertNoSql(RemoteException error) {
    String message = error.getMessage();
    for (String sql : List.of("SQLSTATE", "ERROR:", "invalid byte sequence", "INSERT ", "SELECT ", "UPDATE ",
        "PSQLException", "StoreException", "postgres")) {
      assertFalse(message.contains(sql), "the answer carries '" + sql + "': " + message);
    }
  }

  @Test
  void aNulInAPathIsAnInvalidPathForEveryCall() {
    String bad = "/dir/" + NUL_NAME;
    String text = "/dir/a\\u0000b";
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, text,
        () -> namenode.mkdirs(bad, DIR, true));
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, text,
        () -> namenode.getFileInfo(bad));
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, text,
        () -> namenode.getListing(bad, new byte[0], false));
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, text,
        () -> namenode.create(bad, DIR, "client", createFlags(), true, (short) 1, 1024,
            CryptoProtocolVersion.supported(), null, null));
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, text,
        () -> namenode.rename("/dir/sub", bad));
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, text,
        () -> namenode.delete(bad, true));
  }

  @Test
  void aNulInAnXAttrNameIsRefused() {
    XAttr bad = new XAttr.Builder().setNameSpace(XAttr.NameSpace.USER).setName(NUL_NAME).setValue(new byte[] {1})
        .build();
    String text = "user.a\\u0000b";
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text,
        () -> namenode.setXAttr("/dir", bad, EnumSet.of(XAttrSetFlag.CREATE)));
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text,
        () -> namenode.getXAttrs("/dir", List.of(bad)));
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text,
        () -> namenode.removeXAttr("/dir", bad));
  }

  @Test
  void aNulInAClientNameIsRefused() {
    String text = "client name \"client\\u0000x\"";
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text,
        () -> namenode.create("/dir/new", DIR, "client\0x", createFlags(), true, (short) 1, 1024,
            CryptoProtocolVersion.supported(), null, null));
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text, () -> namenode.renewLease("client\0x", null));
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text,
        () -> namenode.recoverLease("/dir/file", "client\0x"));
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, text,
        () -> namenode.append("/dir/file", "client\0x", new EnumSetWritable<>(EnumSet.of(CreateFlag.APPEND))));
  }

  @Test
  void aNulInAnOwnerOrGroupIsRefused() {
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, "user name \"a\\u0000b\"",
        () -> namenode.setOwner("/dir", NUL_NAME, null));
    assertRefusedWithoutSql(HadoopIllegalArgumentException.class, "group name \"a\\u0000b\"",
        () -> namenode.setOwner("/dir", null, NUL_NAME));
  }

  @Test
  void aNulInALinkTargetIsAnInvalidPath() {
    assertRefusedWithoutSql(org.apache.hadoop.fs.InvalidPathException.class, "Invalid target name: /t\\u0000x",
        () -> namenode.createSymlink("/t\0x", "/dir/link", DIR, false));
  }

  @Test
  void aNulInAnAclEntryNameIsAnInvalidAcl() {
    List<AclEntry> acl = AclEntry.parseAclSpec("user::rwx,group::r-x,other::---,mask::rwx", true);
    List<AclEntry> bad = new ArrayList<>(acl);
    bad.add(new AclEntry.Builder().setScope(AclEntryScope.ACCESS).setType(AclEntryType.USER).setName(NUL_NAME)
        .setPermission(FsAction.READ).build());
    assertRefusedWithoutSql(AclException.class, "a\\u0000b", () -> namenode.setAcl("/dir", bad));
    assertRefusedWithoutSql(AclException.class, "a\\u0000b", () -> namenode.modifyAclEntries("/dir", bad));
  }

  /**
   * The safety net: a database error nothing validated for (here a storage id with a NUL, which only datanodes name)
   * answers an error naming the call, not the database's words; the details stay in the namenode's log.
   */
  @Test
  void anUnexpectedDatabaseErrorReachesTheClientWithoutItsSql() throws IOException {
    String holder = "DFSClient_pipeline_probe";
    HdfsFileStatus created = namenode.create("/dir/pipeline", DIR, holder, createFlags(), true, (short) 1, 1024,
        CryptoProtocolVersion.supported(), null, null);
    try {
      LocatedBlock block = namenode.addBlock("/dir/pipeline", holder, null, null, created.getFileId(), null, null);
      LocatedBlock bumped = namenode.updateBlockForPipeline(block.getBlock(), holder);
      ExtendedBlock newBlock = new ExtendedBlock(block.getBlock());
      newBlock.setGenerationStamp(bumped.getBlock().getGenerationStamp());
      RemoteException error = assertThrows(RemoteException.class, () -> namenode.updatePipeline(holder,
          block.getBlock(), newBlock, block.getLocations(), new String[] {"DS-\0bad"}));
      assertEquals(IOException.class.getName(), error.getClassName());
      assertTrue(error.getMessage().startsWith("updatePipeline failed in the metadata database"),
          error.getMessage());
      assertNoSql(error);
    } finally {
      namenode.delete("/dir/pipeline", false);
    }
  }
}

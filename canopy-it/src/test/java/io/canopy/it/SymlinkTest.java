package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.UnresolvedPathException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Symbolic links with {@code canopy.namenode.symlinks.enabled}: created through the stock FileSystem and
 * FileContext, resolved by the client from the namenode's UnresolvedPathException (at the end of a path, in its
 * middle, relative, dangling), and acted on themselves by delete, rename, getFileLinkInfo, listings and
 * getContentSummary, as HDFS does. The client-side switch is Hadoop's {@code FileSystem.enableSymlinks()}, as in
 * HDFS's own symlink tests.
 */
@Timeout(300)
class SymlinkTest {
  static {
    FileSystem.enableSymlinks();
  }

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true)).dataNodes(1).build();
  static DistributedFileSystem fs;
  static FileContext fc;
  static ClientProtocol namenode;

  @BeforeAll
  static void clients() throws IOException {
    fs = CLUSTER.fileSystem();
    fc = FileContext.getFileContext(fs.getUri(), new Configuration(CLUSTER.cluster().conf()));
    namenode = fs.getClient().getNamenode();
  }

  private static byte[] write(String file, String content) throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    TestFiles.write(fs, path(file), bytes);
    return bytes;
  }

  /** A raw call refused by the namenode with {@code exceptionClass}; returns the message's first line. */
  private static String remote(Class<?> exceptionClass, Executable call) {
    RemoteException error = assertThrows(RemoteException.class, call::run);
    assertEquals(exceptionClass.getName(), error.getClassName(), error.getMessage());
    return error.getMessage().split("\n", 2)[0];
  }

  /** Hadoop's RPC server sends an exception's stack trace after its message, as HDFS does. */
  private static String firstLine(Exception e) {
    return e.getMessage().split("\n", 2)[0];
  }

  private static UnresolvedPathException unresolved(RemoteException remote) {
    assertEquals(UnresolvedPathException.class.getName(), remote.getClassName(), remote.getMessage());
    return (UnresolvedPathException) remote.unwrapRemoteException(UnresolvedPathException.class);
  }

  @Test
  void fileSystemCreatesAndResolvesLinksAtTheEndAndInTheMiddleOfAPath() throws IOException {
    fs.mkdirs(path("/fs/data/sub"));
    byte[] content = write("/fs/data/sub/file", "through links");
    fs.createSymlink(path("/fs/data"), path("/fs/toData"), false);
    fs.createSymlink(path("/fs/data/sub/file"), path("/fs/toFile"), false);

    assertArrayEquals(content, TestFiles.read(fs, path("/fs/toFile")));
    assertArrayEquals(content, TestFiles.read(fs, path("/fs/toData/sub/file")),
        "a link to a directory in the middle of a path");
    assertEquals(content.length, fs.getFileStatus(path("/fs/toData/sub/file")).getLen());
    FileStatus resolved = fs.getFileStatus(path("/fs/toFile"));
    assertFalse(resolved.isSymlink());
    assertEquals(content.length, resolved.getLen());
    assertTrue(fs.getFileStatus(path("/fs/toData")).isDirectory());

    FileStatus link = fs.getFileLinkStatus(path("/fs/toFile"));
    assertTrue(link.isSymlink(), "getFileLinkStatus is the link's own status, not the target's");
    assertFalse(link.isDirectory());
    assertEquals(0, link.getLen());
    assertEquals(0, link.getReplication());
    assertEquals(fs.makeQualified(path("/fs/data/sub/file")), link.getSymlink());
    assertEquals(path("/fs/data/sub/file"), fs.getLinkTarget(path("/fs/toFile")));
    assertEquals(path("/fs/data"), fs.getLinkTarget(path("/fs/toData")));

    // writes go through links too: the file is created in the link's target directory
    write("/fs/toData/sub/second", "second");
    assertTrue(fs.exists(path("/fs/data/sub/second")));
    assertTrue(fs.mkdirs(path("/fs/toData/made")));
    assertTrue(fs.getFileStatus(path("/fs/data/made")).isDirectory());
  }

  @Test
  void fileContextCreatesAndResolvesRelativeAndChainedLinks() throws IOException {
    fs.mkdirs(path("/fc/dir"));
    byte[] content = write("/fc/dir/file", "file context");
    fc.createSymlink(path("dir"), path("/fc/relative"), false); // relative to the link's parent
    fc.createSymlink(path("/fc/relative"), path("/fc/chained"), false); // a link to a link
    fc.createSymlink(path("/fc/chained/file"), path("/fc/deep/toFile"), true); // creates /fc/deep

    try (FSDataInputStream in = fc.open(path("/fc/deep/toFile"))) {
      assertArrayEquals(content, in.readAllBytes());
    }
    assertEquals(content.length, fc.getFileStatus(path("/fc/chained/file")).getLen());
    assertTrue(fc.getFileStatus(path("/fc/deep")).isDirectory());
    FileStatus relative = fc.getFileLinkStatus(path("/fc/relative"));
    assertTrue(relative.isSymlink());
    assertEquals(path("dir"), fc.getLinkTarget(path("/fc/relative")), "the target is kept as given");
    assertEquals(path("/fc/relative"), fc.getLinkTarget(path("/fc/chained")));
  }

  @Test
  void theNamenodeAnswersUnresolvedPathExceptionWithWhatTheClientResolvesWith() throws IOException {
    fs.mkdirs(path("/raw/a/b"));
    write("/raw/a/b/file", "x");
    namenode.createSymlink("/raw/a", "/raw/link", FsPermission.getDirDefault(), false);

    UnresolvedPathException middle = unresolved(assertThrows(RemoteException.class,
        () -> namenode.getFileInfo("/raw/link/b/file")));
    assertEquals("/raw/a/b/file", firstLine(middle), "the path with the link replaced by its target");
    UnresolvedPathException last = unresolved(assertThrows(RemoteException.class,
        () -> namenode.getFileInfo("/raw/link")));
    assertEquals("/raw/a", firstLine(last));
    for (Executable call : List.<Executable>of(
        () -> namenode.getBlockLocations("/raw/link/b/file", 0, 1),
        () -> namenode.getListing("/raw/link", new byte[0], false),
        () -> namenode.setPermission("/raw/link", new FsPermission((short) 0700)),
        () -> namenode.setTimes("/raw/link", 1, 1),
        () -> namenode.mkdirs("/raw/link/b/new", FsPermission.getDirDefault(), false),
        () -> namenode.delete("/raw/link/b/file", false))) {
      unresolved(assertThrows(RemoteException.class, call::run));
    }

    assertEquals("/raw/a", namenode.getLinkTarget("/raw/link"));
    assertEquals("/raw/a/b/file", namenode.getLinkTarget("/raw/link/b/file"),
        "a link before the last component: the path resolved through it");
    HdfsFileStatus link = namenode.getFileLinkInfo("/raw/link");
    assertTrue(link.isSymlink());
    assertEquals(path("/raw/a"), link.getSymlink());
    assertNull(namenode.getFileLinkInfo("/raw/missing"));
    assertEquals("Path /raw/a is not a symbolic link", remote(IOException.class, () -> namenode.getLinkTarget("/raw/a")));
    assertEquals("File does not exist: /raw/missing",
        remote(FileNotFoundException.class, () -> namenode.getLinkTarget("/raw/missing")));
    assertTrue(fs.exists(path("/raw/a/b/file")), "nothing was done through the link on the namenode's side");
  }

  @Test
  void danglingLinksAreLinksToNothing() throws IOException {
    fs.mkdirs(path("/dangling"));
    fs.createSymlink(path("/dangling/nowhere"), path("/dangling/link"), false);
    assertTrue(fs.getFileLinkStatus(path("/dangling/link")).isSymlink());
    assertFalse(fs.exists(path("/dangling/link")));
    assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(path("/dangling/link")));
    assertThrows(FileNotFoundException.class, () -> fs.open(path("/dangling/link")));
    assertThrows(FileNotFoundException.class, () -> fc.create(path("/dangling/link/file"),
        EnumSet.of(CreateFlag.CREATE)), "a file under a dangling link to a directory");
    // writing to a dangling link to a file creates its target, as a POSIX file system does
    try (FSDataOutputStream out = fc.create(path("/dangling/link"), EnumSet.of(CreateFlag.CREATE))) {
      out.write(1);
    }
    assertEquals(1, fs.getFileStatus(path("/dangling/nowhere")).getLen());
    assertTrue(fs.getFileLinkStatus(path("/dangling/link")).isSymlink());
  }

  @Test
  void deleteAndRenameActOnTheLinkNotItsTarget() throws IOException {
    fs.mkdirs(path("/move/dir"));
    byte[] content = write("/move/dir/file", "target");
    fs.createSymlink(path("/move/dir"), path("/move/toDir"), false);
    fs.createSymlink(path("/move/dir/file"), path("/move/toFile"), false);

    assertTrue(fs.rename(path("/move/toFile"), path("/move/dir/renamedLink")));
    assertTrue(fs.getFileLinkStatus(path("/move/dir/renamedLink")).isSymlink());
    assertArrayEquals(content, TestFiles.read(fs, path("/move/dir/renamedLink")));
    assertFalse(fs.exists(path("/move/toFile")));
    assertTrue(fs.getFileStatus(path("/move/dir/file")).isFile(), "the target did not move");

    // rename2 with overwrite replaces a link by a file: the link's target is untouched
    write("/move/replacement", "replacement");
    fs.rename(path("/move/replacement"), path("/move/dir/renamedLink"), Options.Rename.OVERWRITE);
    assertFalse(fs.getFileLinkStatus(path("/move/dir/renamedLink")).isSymlink());
    assertArrayEquals(content, TestFiles.read(fs, path("/move/dir/file")));

    // an old-style rename onto a link to a directory does not move into the directory: the link exists
    write("/move/other", "other");
    assertFalse(fs.rename(path("/move/other"), path("/move/toDir")));
    assertFalse(fs.exists(path("/move/dir/other")));

    assertTrue(fs.delete(path("/move/toDir"), false), "a link to a non-empty directory is deleted alone");
    assertNull(namenode.getFileLinkInfo("/move/toDir"));
    assertArrayEquals(content, TestFiles.read(fs, path("/move/dir/file")));

    // a recursive delete does not follow the links it removes
    fs.mkdirs(path("/keep"));
    write("/keep/file", "kept");
    fs.mkdirs(path("/move/tree"));
    fs.createSymlink(path("/keep"), path("/move/tree/toKeep"), false);
    assertTrue(fs.delete(path("/move/tree"), true));
    assertTrue(fs.exists(path("/keep/file")));
  }

  @Test
  void listingsShowLinksAsLinksAndContentSummaryCountsThemAsFiles() throws IOException {
    fs.mkdirs(path("/list/dir"));
    byte[] content = write("/list/file", "12345");
    fs.createSymlink(path("/list/file"), path("/list/link"), false);

    DirectoryListing listing = namenode.getListing("/list", new byte[0], true);
    List<String> names = new ArrayList<>();
    for (HdfsFileStatus status : listing.getPartialListing()) {
      names.add(status.getLocalName());
      if (status.getLocalName().equals("link")) {
        assertTrue(status.isSymlink());
        assertEquals(path("/list/file"), status.getSymlink());
        assertEquals(0, status.getLen());
      }
    }
    assertEquals(List.of("dir", "file", "link"), names);
    List<String> located = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> entries = fs.listLocatedStatus(path("/list"));
    while (entries.hasNext()) {
      LocatedFileStatus entry = entries.next();
      located.add(entry.getPath().getName() + (entry.isSymlink() ? "@" : ""));
    }
    assertEquals(List.of("dir", "file", "link@"), located, "listings with block locations carry links too");

    ContentSummary summary = fs.getContentSummary(path("/list"));
    assertEquals(2, summary.getFileCount(), "HDFS counts a link as a file");
    assertEquals(2, summary.getDirectoryCount());
    assertEquals(content.length, summary.getLength(), "a link has no length");
    ContentSummary ofLink = namenode.getContentSummary("/list/link");
    assertEquals(1, ofLink.getFileCount(), "the summary of a link is the link's own");
    assertEquals(0, ofLink.getLength());
  }

  @Test
  void createSymlinkRefusesWhatHdfsRefuses() throws IOException {
    fs.mkdirs(path("/refuse/dir"));
    write("/refuse/file", "x");
    namenode.createSymlink("/refuse/file", "/refuse/link", FsPermission.getDirDefault(), false);
    assertEquals("failed to create link /refuse/link either because the filename is invalid or the file exists",
        remote(IOException.class,
            () -> namenode.createSymlink("/elsewhere", "/refuse/link", FsPermission.getDirDefault(), false)));
    remote(IOException.class,
        () -> namenode.createSymlink("/elsewhere", "/refuse/dir", FsPermission.getDirDefault(), false));
    assertEquals("Parent directory doesn't exist: /refuse/missing", remote(FileNotFoundException.class,
        () -> namenode.createSymlink("/refuse/file", "/refuse/missing/link", FsPermission.getDirDefault(), false)));
    for (String target : new String[] {"", "/.reserved", "/.reserved/raw/x"}) {
      String invalid = remote(org.apache.hadoop.fs.InvalidPathException.class,
          () -> namenode.createSymlink(target, "/refuse/bad", FsPermission.getDirDefault(), false));
      assertTrue(invalid.contains("Invalid target name: " + target), invalid);
    }
    String tooLong = "/refuse/" + "x".repeat(8000);
    assertEquals("Symlink path exceeds 8000 character limit", remote(IOException.class,
        () -> namenode.createSymlink("/refuse/file", tooLong, FsPermission.getDirDefault(), false)));
    assertFalse(fs.exists(path("/refuse/bad")));
    // a link under a link: the client resolves the parent and creates the link in the target directory
    fs.createSymlink(path("/refuse/dir"), path("/refuse/toDir"), false);
    fs.createSymlink(path("/refuse/file"), path("/refuse/toDir/inner"), false);
    assertTrue(fs.getFileLinkStatus(path("/refuse/dir/inner")).isSymlink());
    assertThrows(FileAlreadyExistsException.class, () -> fc.mkdir(path("/refuse/link"), FsPermission.getDirDefault(),
        false), "mkdir over a link to a file resolves it to an existing file");
  }

  @Test
  void attributeCallsOnALinkChangeItsTargetAndLeaveTheLinkAlone() throws IOException {
    fs.mkdirs(path("/attrs"));
    write("/attrs/file", "x");
    fs.createSymlink(path("/attrs/file"), path("/attrs/link"), false);
    FileStatus before = fs.getFileLinkStatus(path("/attrs/link"));

    fs.setPermission(path("/attrs/link"), new FsPermission((short) 0640));
    fs.setReplication(path("/attrs/link"), (short) 2);
    fs.setTimes(path("/attrs/link"), 2000L, 3000L);
    fs.setXAttr(path("/attrs/link"), "user.via", new byte[] {7});
    fs.setStoragePolicy(path("/attrs/link"), "COLD");

    FileStatus file = fs.getFileStatus(path("/attrs/file"));
    assertEquals(0640, file.getPermission().toShort());
    assertEquals(2, file.getReplication());
    assertEquals(2000L, file.getModificationTime());
    assertEquals(3000L, file.getAccessTime());
    assertArrayEquals(new byte[] {7}, fs.getXAttr(path("/attrs/file"), "user.via"));
    assertEquals("COLD", fs.getStoragePolicy(path("/attrs/file")).getName());
    assertEquals(before, fs.getFileLinkStatus(path("/attrs/link")), "the link itself is unchanged");
    assertEquals(0777, fs.getFileLinkStatus(path("/attrs/link")).getPermission().toShort());
    assertEquals(0, fs.getFileLinkStatus(path("/attrs/link")).getReplication());
    // HDFS's getStoragePolicy does not follow a link as the last component, and links have no policy
    assertEquals("Storage policy are not supported on symlinks",
        remote(UnsupportedOperationException.class, () -> namenode.getStoragePolicy("/attrs/link")));
    assertEquals("Path is not a file: /attrs/link",
        remote(FileNotFoundException.class, () -> namenode.getPreferredBlockSize("/attrs/link")));
  }

  @Test
  void aLinkIsOwnedByItsCreatorWithHdfsPermissionsAndItsParentsGroup() throws IOException {
    fs.mkdirs(path("/owner"));
    fs.setOwner(path("/owner"), null, "linkgroup");
    fs.createSymlink(path("/owner/target"), path("/owner/link"), false);
    FileStatus link = fs.getFileLinkStatus(path("/owner/link"));
    assertEquals(UserGroupInformation.getCurrentUser().getShortUserName(), link.getOwner());
    assertEquals("linkgroup", link.getGroup());
    assertEquals(0777, link.getPermission().toShort());
    assertNotNull(namenode.getFileLinkInfo("/owner/link"));
  }

  /** A call that may throw, for the table of calls that must not follow a link on the namenode. */
  private interface Executable {
    void run() throws Exception;
  }
}

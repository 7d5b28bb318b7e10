package io.canopy.it.oracle;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * The small tree the permission oracle builds, the same on Apache HDFS and on Canopy, under a fresh root per round:
 * directories of every restrictive kind (0700, 0711, 0770, 0000, a sticky 1777, one with access and default ACLs, one
 * with a namespace quota, private directories below readable ones), files of the owner and of another user, and the
 * paths the calls are tried on (missing names included). Files are empty: no call compared here needs data.
 */
final class OracleTree {
  /** The owner of most of the tree; {@code carol} shares its group, {@code bob} does not. */
  static final String OWNER = "alice";
  static final String GROUP = "staff";
  /** An extended attribute every {@link Entry#xattr} entry carries. */
  static final String XATTR = "user.oracle";
  /** A namespace quota large enough never to refuse a call of the oracle. */
  static final long QUOTA = 1000;

  /**
   * One inode of the tree, relative to the round's root; {@code kind} null for a path that does not exist, {@code
   * owner} null for the superuser.
   */
  record Entry(String name, Kind kind, String owner, String group, int mode, List<AclEntry> acl, boolean quota,
      boolean xattr) {
    boolean exists() {
      return kind != null;
    }
  }

  /** {@code OPEN_FILE}: an empty file left open for write by the superuser's client (its lease renewed per call). */
  enum Kind { DIRECTORY, FILE, OPEN_FILE }

  private static final List<Entry> ENTRIES = List.of(
      dir("open", OWNER, 0755, true),
      file("open/f", OWNER, 0644, true),
      file("open/g", "bob", "bob", 0600),
      new Entry("open/w", Kind.OPEN_FILE, OWNER, GROUP, 0644, List.of(), false, false),
      missing("open/f/below"),
      missing("open/missing"),
      missing("open/missing/deeper"),
      dir("private", OWNER, 0700, true),
      file("private/f", OWNER, 0644, true),
      new Entry("private/w", Kind.OPEN_FILE, OWNER, GROUP, 0644, List.of(), false, false),
      missing("private/f/below"),
      missing("private/missing"),
      dir("traverse", OWNER, 0711, false),
      file("traverse/f", OWNER, 0644, false),
      file("traverse/secret", OWNER, 0600, false),
      dir("group", OWNER, 0770, false),
      file("group/f", OWNER, 0660, false),
      dir("none", OWNER, 0000, false),
      missing("none/missing"),
      new Entry("sticky", Kind.DIRECTORY, null, "supergroup", 01777, List.of(), false, true), // the superuser's
      file("sticky/a", OWNER, 0666, false),
      file("sticky/b", "bob", "bob", 0644),
      new Entry("acl", Kind.DIRECTORY, OWNER, GROUP, 0750, directoryAcl(), false, false),
      new Entry("acl/f", Kind.FILE, OWNER, GROUP, 0660, fileAcl(), false, true),
      dir("mixed", OWNER, 0755, false),
      dir("mixed/sub", OWNER, 0700, false),
      file("mixed/sub/f", OWNER, 0644, false),
      new Entry("quota", Kind.DIRECTORY, OWNER, GROUP, 0755, List.of(), true, false),
      dir("quota/sub", OWNER, 0700, false),
      file("quota/sub/f", OWNER, 0644, false));

  private OracleTree() {
  }

  /** rwx for the owner, r-x for bob by name and for the group, nothing for others; new children: rwx for bob. */
  private static List<AclEntry> directoryAcl() {
    return AclEntry.parseAclSpec("user::rwx,user:bob:r-x,group::r-x,mask::r-x,other::---,default:user::rwx,"
        + "default:user:bob:rwx,default:group::r-x,default:mask::rwx,default:other::---", true);
  }

  /** rw- for the owner and for bob by name, r-- for the group (masked rw-), nothing for others. */
  private static List<AclEntry> fileAcl() {
    return AclEntry.parseAclSpec("user::rw-,user:bob:rw-,group::r--,mask::rw-,other::---", true);
  }

  private static Entry dir(String name, String owner, int mode, boolean xattr) {
    return new Entry(name, Kind.DIRECTORY, owner, GROUP, mode, List.of(), false, xattr);
  }

  private static Entry file(String name, String owner, int mode, boolean xattr) {
    return new Entry(name, Kind.FILE, owner, GROUP, mode, List.of(), false, xattr);
  }

  private static Entry file(String name, String owner, String group, int mode) {
    return new Entry(name, Kind.FILE, owner, group, mode, List.of(), false, false);
  }

  private static Entry missing(String name) {
    return new Entry(name, null, null, null, 0, List.of(), false, false);
  }

  /** Every entry, parents before children: the paths each call is tried on. */
  static List<Entry> entries() {
    return ENTRIES;
  }

  /**
   * Builds the tree under {@code root} as the superuser through {@code namenode} (its client {@code clientName}, which
   * holds the open files), {@code superuser} standing in for the sticky directory's owner.
   */
  static void build(ClientProtocol namenode, String clientName, String superuser, String root) throws IOException {
    mkdir(namenode, root, 0755);
    for (Entry entry : ENTRIES) {
      if (!entry.exists()) {
        continue;
      }
      String path = root + "/" + entry.name();
      if (entry.kind() == Kind.DIRECTORY) {
        mkdir(namenode, path, entry.mode());
      } else {
        createEmpty(namenode, clientName, path, entry.mode(), entry.kind() == Kind.FILE);
      }
      String owner = entry.owner() == null ? superuser : entry.owner();
      namenode.setOwner(path, owner, entry.group());
      if (!entry.acl().isEmpty()) {
        namenode.setAcl(path, entry.acl());
      }
      if (entry.quota()) {
        namenode.setQuota(path, QUOTA, HdfsConstants.QUOTA_DONT_SET, null);
      }
      if (entry.xattr()) {
        namenode.setXAttr(path, xattr(XATTR), EnumSet.of(XAttrSetFlag.CREATE));
      }
    }
  }

  /** mkdirs, then the exact mode set again: the sticky bit included, whatever a server keeps of a mode at creation. */
  private static void mkdir(ClientProtocol namenode, String path, int mode) throws IOException {
    namenode.mkdirs(path, new FsPermission((short) mode), true);
    namenode.setPermission(path, new FsPermission((short) mode));
  }

  /** An empty file, closed unless {@code close} is false (then it stays open for write by {@code clientName}). */
  static void createEmpty(ClientProtocol namenode, String clientName, String path, int mode, boolean close)
      throws IOException {
    create(namenode, clientName, path, mode, EnumSet.of(CreateFlag.CREATE), false, close);
  }

  /** create as a client makes it (replication 1, 1 MB blocks), then, if {@code close}, complete with no block. */
  static void create(ClientProtocol namenode, String clientName, String path, int mode, EnumSet<CreateFlag> flags,
      boolean createParent, boolean close) throws IOException {
    HdfsFileStatus status = namenode.create(path, new FsPermission((short) mode), clientName,
        new EnumSetWritable<>(flags), createParent, (short) 1, 1024 * 1024, CryptoProtocolVersion.supported(), null,
        null);
    if (close && !namenode.complete(path, clientName, null, status.getFileId())) {
      throw new IOException("an empty file did not close at once: " + path);
    }
  }

  /** The attribute {@code name} with a one-byte value. */
  static XAttr xattr(String name) {
    return XAttrHelper.buildXAttr(name, new byte[] {1});
  }

  /**
   * Another existing file of {@code name}'s directory (a concat source next to its target), or the name {@code
   * other} there when the directory has none.
   */
  static String siblingFile(String name) {
    String directory = name.contains("/") ? name.substring(0, name.lastIndexOf('/')) : "";
    for (Entry entry : ENTRIES) {
      String parent = entry.name().contains("/") ? entry.name().substring(0, entry.name().lastIndexOf('/')) : "";
      if (entry.kind() == Kind.FILE && parent.equals(directory) && !entry.name().equals(name)) {
        return entry.name();
      }
    }
    return directory.isEmpty() ? "other" : directory + "/other";
  }
}

package io.canopy.it.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * An in-memory model of what HDFS 3.5.0 answers a superuser client ({@code DistributedFileSystem}) for the operations
 * of {@link Op}, written from the namenode's sources ({@code FSDirMkdirOp}, {@code FSDirWriteFileOp},
 * {@code FSDirAppendOp}, {@code FSDirRenameOp}, {@code FSDirDeleteOp}, {@code FSDirAttrOp},
 * {@code FSDirStatAndListingOp}, {@code FSDirectory.verifyQuota}). The tree is the run's root directory and
 * everything under it.
 *
 * <p>Rules worth knowing, all HDFS's:
 * <ul>
 * <li>A path whose non-last component is a file: operations that create (mkdirs, create, a rename's destination)
 * throw {@code ParentNotDirectoryException}; the others throw {@code AccessControlException}, except
 * getFileStatus, which answers "not found" to the superuser.</li>
 * <li>Quotas: a directory's namespace usage counts itself and everything below; storage space is length x
 * replication of closed files, and a block being written is charged whole (preferred block size x replication)
 * when it is allocated. A change is checked from the deepest directory up (namespace before storage space at each
 * directory), a rename only below the deepest ancestor source and destination share; only growing dimensions are
 * checked. mkdirs and create make missing parents one at a time, so a quota failure keeps those made before it.</li>
 * <li>Files here are always closed between steps (the real systems recover the lease of a write that failed), and
 * at most one block long, so only whole-block charges at allocation and partial-block charges at append matter.</li>
 * </ul>
 * Situations where HDFS's answer is not a behaviour worth copying throw {@link Unspecified}; a generator avoids
 * them.
 */
public final class HdfsModel implements FsUnderTest {
  /** The fixed parameters both sides share. */
  public record Settings(long blockSize, short replication, String user, String rootGroup, short rootMode,
      short umask) {
  }

  /** HDFS's behaviour here is an accident (or not persisted): the sequence is not a meaningful test. */
  public static final class Unspecified extends RuntimeException {
    Unspecified(String why) {
      super(why);
    }
  }

  /** An exception HDFS would throw: its class and message. */
  private static final class Thrown extends Exception {
    final String exceptionClass;

    Thrown(String exceptionClass, String message) {
      super(message, null, false, false);
      this.exceptionClass = exceptionClass;
    }
  }

  /** HDFS orders a directory's children by the bytes of their names. */
  private static final Comparator<String> BYTE_ORDER = (a, b) -> Arrays.compareUnsigned(
      a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  private static final class Node {
    final boolean directory;
    String name;
    Node parent;
    final TreeMap<String, Node> children = new TreeMap<>(BYTE_ORDER);
    byte[] data = new byte[0];
    short replication;
    long blockSize;
    short mode;
    String owner;
    String group;
    long nsQuota = -1;
    long ssQuota = -1;

    Node(boolean directory, String name, short mode, String owner, String group) {
      this.directory = directory;
      this.name = name;
      this.mode = mode;
      this.owner = owner;
      this.group = group;
    }

    boolean hasQuota() {
      return nsQuota >= 0 || ssQuota >= 0;
    }

    long namespace() {
      long count = 1;
      for (Node child : children.values()) {
        count += child.namespace();
      }
      return count;
    }

    long storage() {
      if (!directory) {
        return data.length * (long) replication;
      }
      long sum = 0;
      for (Node child : children.values()) {
        sum += child.storage();
      }
      return sum;
    }

    long length() {
      if (!directory) {
        return data.length;
      }
      long sum = 0;
      for (Node child : children.values()) {
        sum += child.length();
      }
      return sum;
    }

    long files() {
      if (!directory) {
        return 1;
      }
      long sum = 0;
      for (Node child : children.values()) {
        sum += child.files();
      }
      return sum;
    }

    long directories() {
      if (!directory) {
        return 0;
      }
      long sum = 1;
      for (Node child : children.values()) {
        sum += child.directories();
      }
      return sum;
    }

    Node copy(Node newParent) {
      Node copy = new Node(directory, name, mode, owner, group);
      copy.parent = newParent;
      copy.data = data;
      copy.replication = replication;
      copy.blockSize = blockSize;
      copy.nsQuota = nsQuota;
      copy.ssQuota = ssQuota;
      for (Map.Entry<String, Node> child : children.entrySet()) {
        copy.children.put(child.getKey(), child.getValue().copy(copy));
      }
      return copy;
    }
  }

  /** A path looked up as HDFS's INodesInPath does: the walk stops at a file, later components stay null. */
  private static final class Resolved {
    final String path;
    final String[] components;
    /** nodes[0] is the root, nodes[i] the i-th component (null where missing). */
    final Node[] nodes;
    /** A component before the last exists and is a file. */
    final boolean fileOnTheWay;

    Resolved(String path, String[] components, Node[] nodes, boolean fileOnTheWay) {
      this.path = path;
      this.components = components;
      this.nodes = nodes;
      this.fileOnTheWay = fileOnTheWay;
    }

    Node last() {
      return nodes[nodes.length - 1];
    }

    /** The parent of the last component (null if missing); the root's parent is outside the model. */
    Node parent() {
      return nodes.length >= 2 ? nodes[nodes.length - 2] : null;
    }

    String lastName() {
      return components.length == 0 ? "" : components[components.length - 1];
    }
  }

  private final Settings settings;
  private Node root;

  public HdfsModel(Settings settings) {
    this.settings = settings;
    this.root = new Node(true, "", settings.rootMode(), settings.user(), settings.rootGroup());
  }

  private HdfsModel(Settings settings, Node root) {
    this.settings = settings;
    this.root = root;
  }

  /** A deep copy: a generator tries an operation on it first. */
  public HdfsModel copy() {
    return new HdfsModel(settings, root.copy(null));
  }

  public Settings settings() {
    return settings;
  }

  // ---- queries for generators ----

  /** Every existing path, the root ("/") first, parents before children. */
  public List<String> paths() {
    List<String> paths = new ArrayList<>();
    collect(root, "/", paths);
    return paths;
  }

  private static void collect(Node node, String path, List<String> paths) {
    paths.add(path);
    for (Node child : node.children.values()) {
      collect(child, join(path, child.name), paths);
    }
  }

  /** The length of the file at {@code path}, or -1 when it is not a file. */
  public long fileLength(String path) {
    Node node = resolve(path).last();
    return node == null || node.directory ? -1 : node.data.length;
  }

  public boolean isDirectory(String path) {
    Node node = resolve(path).last();
    return node != null && node.directory;
  }

  // ---- operations ----

  @Override
  public Outcome apply(Op op) {
    try {
      if (op instanceof Op.Mkdir m) {
        return mkdirs(m.path());
      } else if (op instanceof Op.Create c) {
        return create(c);
      } else if (op instanceof Op.Append a) {
        return append(a);
      } else if (op instanceof Op.Rename r) {
        return rename(r.src(), r.dst());
      } else if (op instanceof Op.Rename2 r) {
        return rename2(r.src(), r.dst(), r.overwrite());
      } else if (op instanceof Op.Delete d) {
        return delete(d.path(), d.recursive());
      } else if (op instanceof Op.Chmod c) {
        return chmod(c.path(), c.mode());
      } else if (op instanceof Op.SetQuota q) {
        return setQuota(q.path(), q.namespace(), q.storagespace());
      } else if (op instanceof Op.List l) {
        return list(l.path());
      } else if (op instanceof Op.Stat s) {
        return stat(s.path());
      } else if (op instanceof Op.Count c) {
        return count(c.path());
      } else if (op instanceof Op.QuotaUsage q) {
        return quotaUsage(q.path());
      } else if (op instanceof Op.Read r) {
        return read(r.path());
      } else if (op instanceof Op.Tree t) {
        return tree(t.path());
      }
      throw new IllegalArgumentException("unknown operation " + op);
    } catch (Thrown e) {
      return Outcome.threw(e.exceptionClass, e.getMessage());
    }
  }

  private Outcome mkdirs(String path) throws Thrown {
    Resolved r = resolveForCreate(path);
    Node last = r.last();
    if (last != null) {
      if (!last.directory) {
        throw new Thrown("FileAlreadyExistsException", "Path is not a directory: " + path);
      }
      return Outcome.ok("true");
    }
    // The client asks for 0777 under its umask; missing parents get the same plus u+wx. A quota that refuses one
    // keeps those made before it, as HDFS makes them one at a time.
    short leafMode = (short) (0777 & ~settings.umask());
    makeMissingParents(r, withUserWriteExecute(leafMode));
    addChild(r.parent(), new Node(true, r.lastName(), leafMode, settings.user(), null));
    return Outcome.ok("true");
  }

  private Outcome create(Op.Create op) throws Thrown {
    Resolved r = resolveForCreate(op.path());
    Node last = r.last();
    if (last != null) {
      if (last.directory) {
        throw new Thrown("FileAlreadyExistsException", op.path() + " already exists as a directory");
      }
      if (!op.overwrite()) {
        throw new Thrown("FileAlreadyExistsException", op.path() + " already exists");
      }
      // HDFS deletes the old file, then adds the new one; if that fails a quota check the old file is gone from the
      // namenode's memory but not from its edit log.
      detach(last);
      try {
        verifyQuota(r.parent(), 1, 0, null);
      } catch (Thrown e) {
        attach(r.parent(), last);
        throw new Unspecified("create with overwrite under a namespace quota already exceeded");
      }
      r = resolve(op.path());
    }
    if (last == null) {
      // Missing parents take the deepest existing directory's permission plus u+wx.
      Node existing = null;
      for (Node node : r.nodes) {
        if (node != null) {
          existing = node;
        }
      }
      makeMissingParents(r, withUserWriteExecute(existing.mode)); // kept if the file is refused
    }
    Node file = new Node(false, r.lastName(), (short) (0666 & ~settings.umask()), settings.user(), null);
    file.replication = settings.replication();
    file.blockSize = settings.blockSize();
    addChild(r.parent(), file);
    write(file, op.size(), op.fill(), op.path());
    return Outcome.ok("created");
  }

  private Outcome append(Op.Append op) throws Thrown {
    Resolved r = resolveForWrite(op.path());
    Node file = r.last();
    if (file != null && file.directory) {
      throw new Thrown("FileAlreadyExistsException", "Cannot append to directory " + op.path());
    }
    if (file == null) {
      throw new Thrown("FileNotFoundException", "Failed to append to non-existent file " + op.path());
    }
    long length = file.data.length;
    long blockSize = file.blockSize;
    if (length + op.size() > blockSize) {
      throw new Unspecified("an append past the first block (the model covers one-block files)");
    }
    if (length > 0 && length < blockSize) {
      // Opening a partial last block for append charges the rest of the block.
      verifyQuota(file.parent, 0, (blockSize - length) * file.replication, null);
    }
    if (length == 0 || length == blockSize) {
      write(file, op.size(), op.fill(), op.path());
    } else {
      append(file, op.size(), op.fill());
    }
    return Outcome.ok("appended");
  }

  /** Writes to a file with no partial block: a non-empty write allocates one block, charged whole. */
  private void write(Node file, int size, int fill, String path) throws Thrown {
    if (size == 0) {
      return;
    }
    if (size > file.blockSize) {
      throw new Unspecified("a write longer than one block (the model covers one-block files)");
    }
    verifyQuota(file.parent, 0, file.blockSize * file.replication, null);
    append(file, size, fill);
  }

  private static void append(Node file, int size, int fill) {
    byte[] added = Op.data(size, fill);
    byte[] data = Arrays.copyOf(file.data, file.data.length + size);
    System.arraycopy(added, 0, data, file.data.length, size);
    file.data = data;
  }

  private Outcome rename(String src, String dst) throws Thrown {
    Resolved s = resolveForWrite(src);
    Resolved d = resolveForCreate(dst);
    Node source = s.last();
    if (source == null) {
      return Outcome.ok("false");
    }
    if (source == root) {
      throw new Unspecified("renaming the run's root");
    }
    String target = dst;
    Node targetNode = d.last();
    Node targetParent = d.parent();
    if (targetNode != null && targetNode.directory) {
      // Into the directory, under the source's name.
      targetParent = targetNode;
      target = join(dst, source.name);
      targetNode = targetNode.children.get(source.name);
    }
    if (target.equals(src)) {
      return Outcome.ok("true");
    }
    if (target.startsWith(src + "/") || targetNode != null || targetParent == null) {
      return Outcome.ok("false");
    }
    verifyQuota(targetParent, source.namespace(), source.storage(), commonAncestor(source.parent, targetParent));
    move(source, targetParent, lastName(target));
    return Outcome.ok("true");
  }

  private Outcome rename2(String src, String dst, boolean overwrite) throws Thrown {
    Resolved s = resolveForWrite(src);
    Resolved d = resolveForCreate(dst);
    Node source = s.last();
    if (source == null) {
      throw new Thrown("FileNotFoundException", "rename source " + src + " is not found.");
    }
    if (source == root) {
      throw new Unspecified("renaming the run's root");
    }
    if (dst.equals(src)) {
      throw new Thrown("FileAlreadyExistsException", "The source " + src + " and destination " + dst
          + " are the same");
    }
    if (dst.startsWith(src + "/")) {
      throw new Thrown("IOException", "Rename destination " + dst + " is a directory or file under source " + src);
    }
    Node target = d.last();
    if (target != null) {
      if (target.directory != source.directory) {
        throw new Thrown("IOException", "Source " + src + " and destination " + dst + " must both be directories");
      }
      if (!overwrite) {
        throw new Thrown("FileAlreadyExistsException", "rename destination " + dst + " already exists");
      }
      if (target.directory && !target.children.isEmpty()) {
        throw new Thrown("IOException", "rename destination directory is not empty: " + dst);
      }
    }
    Node targetParent = d.parent();
    if (targetParent == null) {
      throw new Thrown("FileNotFoundException", "rename destination parent " + dst + " not found.");
    }
    long namespace = source.namespace() - (target == null ? 0 : target.namespace());
    long storage = source.storage() - (target == null ? 0 : target.storage());
    verifyQuota(targetParent, namespace, storage, commonAncestor(source.parent, targetParent));
    if (target != null) {
      detach(target);
    }
    move(source, targetParent, d.lastName());
    return Outcome.ok("renamed");
  }

  private Outcome delete(String path, boolean recursive) throws Thrown {
    Resolved r = resolveForWrite(path);
    Node node = r.last();
    if (node == null) {
      return Outcome.ok("false");
    }
    if (node == root) {
      throw new Unspecified("deleting the run's root");
    }
    if (node.directory && !node.children.isEmpty() && !recursive) {
      throw new Thrown("PathIsNotEmptyDirectoryException", path + " is non empty");
    }
    detach(node);
    return Outcome.ok("true");
  }

  private Outcome chmod(String path, short mode) throws Thrown {
    Node node = existing(resolveForWrite(path), "File/Directory does not exist: " + path);
    node.mode = mode;
    return Outcome.ok("done");
  }

  private Outcome setQuota(String path, long namespace, long storagespace) throws Thrown {
    Resolved r = resolveForWrite(path);
    Node node = r.last();
    if (node == null) {
      throw new Thrown("FileNotFoundException", "Directory does not exist: " + path);
    }
    if (!node.directory) {
      throw new Thrown("PathIsNotDirectoryException", path);
    }
    if (namespace != Long.MAX_VALUE) {
      node.nsQuota = namespace < 0 ? -1 : namespace;
    }
    if (storagespace != Long.MAX_VALUE) {
      node.ssQuota = storagespace < 0 ? -1 : storagespace;
    }
    return Outcome.ok("done");
  }

  private Outcome list(String path) throws Thrown {
    Resolved r = resolveForRead(path);
    Node node = r.last();
    if (node == null) {
      throw new Thrown("FileNotFoundException", "File " + path + " does not exist.");
    }
    List<String> entries = new ArrayList<>();
    if (node.directory) {
      for (Node child : node.children.values()) {
        entries.add(child.name + " " + status(child));
      }
    } else {
      entries.add(node.name + " " + status(node));
    }
    return Outcome.ok(entries.toString());
  }

  private Outcome stat(String path) throws Thrown {
    Resolved r = resolve(path);
    // The superuser gets "not found" where others get AccessControlException for a file on the way.
    if (r.fileOnTheWay || r.last() == null) {
      throw new Thrown("FileNotFoundException", "File does not exist: " + path);
    }
    return Outcome.ok(status(r.last()));
  }

  private Outcome count(String path) throws Thrown {
    Node node = existing(resolveForRead(path), "File does not exist: " + path);
    return Outcome.ok(contentSummary(node.length(), node.files(), node.directories(), node.nsQuota,
        node.storage(), node.ssQuota));
  }

  private Outcome quotaUsage(String path) throws Thrown {
    Node node = existing(resolveForRead(path), "File/Directory does not exist: " + path);
    return Outcome.ok(quotaUsage(node.namespace(), node.nsQuota, node.storage(), node.ssQuota));
  }

  private Outcome read(String path) throws Thrown {
    Node node = existing(resolveForRead(path), "File does not exist: " + path);
    if (node.directory) {
      throw new Thrown("FileNotFoundException", "Path is not a file: " + path);
    }
    return Outcome.ok(contents(node.data, node.data.length));
  }

  /** Starts with getFileStatus, so a path through a file is "not found", as for {@link #stat}. */
  private Outcome tree(String path) throws Thrown {
    Resolved r = resolve(path);
    if (r.fileOnTheWay || r.last() == null) {
      throw new Thrown("FileNotFoundException", "File does not exist: " + path);
    }
    Node node = r.last();
    List<String> entries = new ArrayList<>();
    tree(node, path, entries);
    return Outcome.ok(String.join("\n", entries));
  }

  private void tree(Node node, String path, List<String> entries) {
    entries.add(path + " " + status(node));
    for (Node child : node.children.values()) {
      tree(child, join(path, child.name), entries);
    }
  }

  // ---- shared formatting: the real systems' outcomes use the same ----

  static String status(boolean directory, long length, short mode, short replication, long blockSize, String owner,
      String group, int children) {
    String common = " mode=" + Integer.toOctalString(mode) + " owner=" + owner + " group=" + group;
    return directory
        ? "dir" + common + " children=" + children + " len=" + length + " repl=" + replication + " bs=" + blockSize
        : "file" + common + " len=" + length + " repl=" + replication + " bs=" + blockSize;
  }

  static String contentSummary(long length, long files, long directories, long quota, long consumed,
      long spaceQuota) {
    return "length=" + length + " files=" + files + " dirs=" + directories + " quota=" + quota + " consumed="
        + consumed + " spaceQuota=" + spaceQuota;
  }

  static String quotaUsage(long count, long quota, long consumed, long spaceQuota) {
    return "count=" + count + " quota=" + quota + " consumed=" + consumed + " spaceQuota=" + spaceQuota;
  }

  static String contents(byte[] data, int length) {
    CRC32 crc = new CRC32();
    crc.update(data, 0, length);
    return "bytes=" + length + " crc=" + Long.toHexString(crc.getValue());
  }

  private String status(Node node) {
    return node.directory
        ? status(true, 0, node.mode, (short) 0, 0, node.owner, node.group, node.children.size())
        : status(false, node.data.length, node.mode, node.replication, node.blockSize, node.owner, node.group, 0);
  }

  // ---- tree helpers ----

  private Resolved resolve(String path) {
    String[] components = path.equals("/") ? new String[0] : path.substring(1).split("/");
    Node[] nodes = new Node[components.length + 1];
    nodes[0] = root;
    boolean fileOnTheWay = false;
    Node current = root;
    for (int i = 0; i < components.length; i++) {
      if (current == null) {
        break;
      }
      if (!current.directory) {
        // HDFS stops at a file; a file before the last component is "on the way".
        fileOnTheWay = true;
        break;
      }
      current = current.children.get(components[i]);
      nodes[i + 1] = current;
    }
    return new Resolved(path, components, nodes, fileOnTheWay);
  }

  /** HDFS's resolvePath with a creating DirOp: a file on the way is ParentNotDirectoryException. */
  private Resolved resolveForCreate(String path) throws Thrown {
    Resolved r = resolve(path);
    if (r.fileOnTheWay) {
      throw new Thrown("ParentNotDirectoryException", "a component of " + path + " is a file");
    }
    return r;
  }

  /** HDFS's resolvePath with any other DirOp: a file on the way is AccessControlException, even for the superuser. */
  private Resolved resolveForWrite(String path) throws Thrown {
    Resolved r = resolve(path);
    if (r.fileOnTheWay) {
      throw new Thrown("AccessControlException", "a component of " + path + " is a file");
    }
    return r;
  }

  private Resolved resolveForRead(String path) throws Thrown {
    return resolveForWrite(path);
  }

  private static Node existing(Resolved r, String message) throws Thrown {
    if (r.last() == null) {
      throw new Thrown("FileNotFoundException", message);
    }
    return r.last();
  }

  /**
   * Creates the missing directories before the last component, one at a time, each checked against quotas; those
   * made before a refused one stay, as in HDFS.
   */
  private void makeMissingParents(Resolved r, short mode) throws Thrown {
    for (int i = 1; i < r.nodes.length - 1; i++) {
      if (r.nodes[i] == null) {
        Node directory = new Node(true, r.components[i - 1], mode, settings.user(), null);
        addChild(r.nodes[i - 1], directory);
        r.nodes[i] = directory;
      }
    }
  }

  /** HDFS's implicit u+wx for directories it makes on the way (a new permission from the bits: no sticky bit). */
  private static short withUserWriteExecute(short mode) {
    return (short) ((mode & 0777) | 0300);
  }

  /** Adds a new inode under {@code parent} after HDFS's namespace check (a new directory's group is its parent's). */
  private void addChild(Node parent, Node child) throws Thrown {
    verifyQuota(parent, child.namespace(), child.storage(), null);
    attach(parent, child);
  }

  private static void attach(Node parent, Node child) {
    if (child.group == null) {
      child.group = parent.group;
    }
    child.parent = parent;
    parent.children.put(child.name, child);
  }

  private static void detach(Node node) {
    node.parent.children.remove(node.name);
    node.parent = null;
  }

  private static void move(Node node, Node newParent, String newName) {
    detach(node);
    node.name = newName;
    attach(newParent, node);
  }

  /**
   * HDFS's FSDirectory.verifyQuota: from {@code from} up to (not including) {@code stopAt}, each directory with a
   * quota checks the namespace, then the storage space; only growing dimensions are checked.
   */
  private static void verifyQuota(Node from, long namespace, long storage, Node stopAt) throws Thrown {
    if (namespace <= 0 && storage <= 0) {
      return;
    }
    for (Node directory = from; directory != null && directory != stopAt; directory = directory.parent) {
      if (!directory.hasQuota()) {
        continue;
      }
      long nsUsage = directory.namespace();
      if (directory.nsQuota >= 0 && namespace > 0 && nsUsage + namespace > directory.nsQuota) {
        throw new Thrown("NSQuotaExceededException", "The NameSpace quota (directories and files) of directory "
            + path(directory) + " is exceeded: quota=" + directory.nsQuota + " file count=" + (nsUsage + namespace));
      }
      long ssUsage = directory.storage();
      if (directory.ssQuota >= 0 && storage > 0 && ssUsage + storage > directory.ssQuota) {
        throw new Thrown("DSQuotaExceededException", "The DiskSpace quota of " + path(directory)
            + " is exceeded: quota = " + directory.ssQuota + " B, diskspace consumed = " + (ssUsage + storage) + " B");
      }
    }
  }

  /** The deepest directory both {@code a} and {@code b} are in (or are). */
  private static Node commonAncestor(Node a, Node b) {
    List<Node> chainA = chain(a);
    List<Node> chainB = chain(b);
    Node common = null;
    for (int i = 0; i < Math.min(chainA.size(), chainB.size()) && chainA.get(i) == chainB.get(i); i++) {
      common = chainA.get(i);
    }
    return common;
  }

  /** The root first, {@code node} last. */
  private static List<Node> chain(Node node) {
    List<Node> chain = new ArrayList<>();
    for (Node n = node; n != null; n = n.parent) {
      chain.add(0, n);
    }
    return chain;
  }

  private static String path(Node node) {
    if (node.parent == null) {
      return "/";
    }
    String parent = path(node.parent);
    return join(parent, node.name);
  }

  static String join(String parent, String name) {
    return parent.equals("/") ? "/" + name : parent + "/" + name;
  }

  private static String lastName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}

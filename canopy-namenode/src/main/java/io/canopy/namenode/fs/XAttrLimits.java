package io.canopy.namenode.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.XAttrHelper;

/**
 * HDFS's extended-attribute settings, from its keys with its defaults and bounds: whether attributes are enabled,
 * how many user-visible (user and trusted) attributes an inode may hold, and the largest name plus value.
 */
public final class XAttrLimits {
  private static final String ENABLED = DFSConfigKeys.DFS_NAMENODE_XATTRS_ENABLED_KEY;
  private static final String MAX_PER_INODE = DFSConfigKeys.DFS_NAMENODE_MAX_XATTRS_PER_INODE_KEY;
  private static final String MAX_SIZE = DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_KEY;
  /** HDFS refuses to start with a larger max-xattr-size than this. */
  private static final int MAX_SIZE_HARD_LIMIT = DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_HARD_LIMIT;

  private final boolean enabled;
  private final int maxPerInode;
  private final int maxSize;

  public XAttrLimits(Configuration conf) {
    this.enabled = conf.getBoolean(ENABLED, DFSConfigKeys.DFS_NAMENODE_XATTRS_ENABLED_DEFAULT);
    this.maxPerInode = conf.getInt(MAX_PER_INODE, DFSConfigKeys.DFS_NAMENODE_MAX_XATTRS_PER_INODE_DEFAULT);
    this.maxSize = (int) conf.getLongBytes(MAX_SIZE, DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_DEFAULT);
    if (maxSize <= 0 || maxSize > MAX_SIZE_HARD_LIMIT) {
      throw new IllegalArgumentException(MAX_SIZE + "=" + maxSize + " must be within [1, " + MAX_SIZE_HARD_LIMIT
          + "]");
    }
    if (maxPerInode < 0) {
      throw new IllegalArgumentException("Cannot set a negative limit on the number of xattrs per inode ("
          + MAX_PER_INODE + "=" + maxPerInode + ")");
    }
  }

  /** HDFS's answer to every attribute call when attributes are disabled. */
  public void checkEnabled() throws IOException {
    if (!enabled) {
      throw new IOException("The XAttr operation has been rejected.  Support for XAttrs has been disabled by "
          + "setting " + ENABLED + " to false.");
    }
  }

  /**
   * The name must be text the database can store: HDFS accepts any, Canopy refuses a NUL with HDFS's exception for
   * a bad attribute name (the client's own name checks throw the same class).
   */
  public void checkName(XAttr xattr) {
    StorableText.require("XAttr name", XAttrHelper.getPrefixedName(xattr));
  }

  /** The name's UTF-8 bytes plus the value's must not exceed the maximum size. */
  public void checkSize(XAttr xattr) {
    int size = xattr.getName().getBytes(StandardCharsets.UTF_8).length
        + (xattr.getValue() == null ? 0 : xattr.getValue().length);
    if (size > maxSize) {
      throw new HadoopIllegalArgumentException("The XAttr is too big. The maximum combined size of the name and "
          + "value is " + maxSize + ", but the total size is " + size);
    }
  }

  /** An inode may hold this many user-visible attributes after a set. */
  public void checkCount(int userVisible) throws IOException {
    if (userVisible > maxPerInode) {
      throw new IOException("Cannot add additional XAttr to inode, would exceed limit of " + maxPerInode);
    }
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.function.Executable;

/**
 * Clients acting as test users: {@link UserGroupInformation#createUserForTesting} registers the user's groups with
 * Hadoop's group mapping of this JVM, which the namenode (in the same JVM) resolves them through, as HDFS's
 * MiniDFSCluster tests do. Each client is a new {@link FileSystem} instance opened as the user; {@link #close}
 * closes them all. The same users can act on Apache HDFS in this JVM too ({@link #UserClients(String,
 * Configuration)}), whose namenode resolves their groups through the same mapping.
 */
public final class UserClients implements AutoCloseable {
  private final String uri;
  private final Configuration conf;
  private final List<FileSystem> opened = new ArrayList<>();

  UserClients(MiniCanopyCluster cluster) {
    this(cluster.uri(), cluster.conf());
  }

  /** Clients of the file system at {@code uri} ({@code hdfs://host:port}) with {@code conf}. */
  public UserClients(String uri, Configuration conf) {
    this.uri = uri;
    this.conf = conf;
  }

  /** A client of namenode 0 (or of {@code uri}) as {@code user}, member of {@code groups}. */
  public DistributedFileSystem as(String user, String... groups) throws IOException {
    return as(UserGroupInformation.createUserForTesting(user, groups), new Configuration(conf));
  }

  DistributedFileSystem as(UserGroupInformation ugi, Configuration conf) throws IOException {
    try {
      DistributedFileSystem fs = ugi.doAs((PrivilegedExceptionAction<DistributedFileSystem>) () ->
          (DistributedFileSystem) FileSystem.newInstance(URI.create(uri), conf));
      opened.add(fs);
      return fs;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted opening a client as " + ugi, e);
    }
  }

  /**
   * Asserts that {@code call} fails with HDFS's AccessControlException whose message (its first line: the rest is
   * the namenode's stack trace, as with HDFS) is {@code expected}.
   */
  static void assertDenied(String expected, Executable call) {
    AccessControlException e = assertThrows(AccessControlException.class, call);
    assertEquals(expected, e.getMessage().split("\n", 2)[0].trim());
  }

  @Override
  public void close() {
    for (FileSystem fs : opened) {
      try {
        fs.close();
      } catch (IOException ignored) {
        // the cluster may be gone already
      }
    }
  }
}

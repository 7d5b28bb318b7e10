package io.canopy.it.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FileSystemContractBaseTest;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.hdfs.AppendTestUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hadoop's FileSystemContractBaseTest on Canopy, set up as HDFS's TestHDFSFileSystemContract: the contract's umask,
 * the default block size, the home directory as working directory, and its two extra tests (append, the lease
 * recovery and safe mode capabilities). HDFS starts a cluster per test; here every test gets a fresh client (tests
 * change its working directory) of the shared cluster.
 */
@ExtendWith(SharedContractCluster.class)
class CanopyFileSystemContractTest extends FileSystemContractBaseTest {
  private String defaultWorkingDirectory;

  @BeforeEach
  void setUp() throws IOException {
    fs = SharedContractCluster.newClient(conf -> {
      conf.set(CommonConfigurationKeys.FS_PERMISSIONS_UMASK_KEY, FileSystemContractBaseTest.TEST_UMASK);
      conf.unset("dfs.blocksize"); // TestHDFSFileSystemContract's cluster keeps HDFS's default block size
      configureClient(conf);
    });
    defaultWorkingDirectory = "/user/" + UserGroupInformation.getCurrentUser().getShortUserName();
  }

  @Override
  @AfterEach
  public void tearDown() throws Exception {
    try {
      super.tearDown();
    } finally {
      if (fs != null) {
        fs.close();
        fs = null;
      }
    }
  }

  /** The client's own settings beyond the contract's; the stock client needs none. */
  void configureClient(Configuration conf) {
  }

  @Override
  protected String getDefaultWorkingDirectory() {
    return defaultWorkingDirectory;
  }

  @Override
  protected int getGlobalTimeout() {
    return 60 * 1000;
  }

  /**
   * Eleven appends, each closed; 30 s (the base class's limit for every test) on PostgreSQL, but not on Ignite, where
   * each close waits for its replicas' commit (design 020).
   */
  @Test
  @org.junit.jupiter.api.Timeout(120)
  void testAppend() throws IOException {
    AppendTestUtil.testAppend(fs, new Path("/testAppend/f"));
  }

  @Test
  void testFileSystemCapabilities() throws IOException {
    Path p = new Path("testFileSystemCapabilities");
    boolean leaseRecovery = fs.hasPathCapability(p, CommonPathCapabilities.LEASE_RECOVERABLE);
    assertThat(leaseRecovery).describedAs("path capability %s in %s", CommonPathCapabilities.LEASE_RECOVERABLE, fs)
        .isTrue();
    assertThat(fs).describedAs("filesystem %s", fs).isInstanceOf(LeaseRecoverable.class);
    assertThat(fs).describedAs("filesystem %s", fs).isInstanceOf(SafeMode.class);
  }
}

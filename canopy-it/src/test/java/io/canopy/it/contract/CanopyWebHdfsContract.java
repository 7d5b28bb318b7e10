package io.canopy.it.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractOptions;

/**
 * Hadoop's FileSystem contract bound to Canopy's WebHDFS: the {@code webhdfs} scheme, Hadoop's own
 * {@code WebHdfsFileSystem} against the namenode's HTTP server of the {@link SharedContractCluster}, with HDFS's
 * contract options and on top of them WebHDFS's ({@code contract/canopy-webhdfs.xml}), as Hadoop binds its WebHDFS
 * contract suites.
 */
public final class CanopyWebHdfsContract extends AbstractFSContract {
  static final String OPTIONS = "contract/canopy-webhdfs.xml";

  public CanopyWebHdfsContract(Configuration conf) {
    super(conf);
    addConfResource(CanopyContract.OPTIONS);
    addConfResource(OPTIONS);
  }

  @Override
  public void init() throws IOException {
    super.init();
    // a missing resource would silently change the options and skip or fail tests for the wrong reason
    if (!isSupported(ContractOptions.IS_CASE_SENSITIVE, false)
        || isSupported(ContractOptions.SUPPORTS_STRICT_EXCEPTIONS, true)) {
      throw new IllegalStateException("contract options " + CanopyContract.OPTIONS + " and " + OPTIONS
          + " not loaded");
    }
  }

  @Override
  public FileSystem getTestFileSystem() {
    return SharedContractCluster.webHdfsFileSystem();
  }

  @Override
  public String getScheme() {
    return "webhdfs";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}

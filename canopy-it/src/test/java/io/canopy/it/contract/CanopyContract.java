package io.canopy.it.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractOptions;

/**
 * Hadoop's FileSystem contract bound to Canopy: the {@code hdfs} scheme, a client of the {@link SharedContractCluster}
 * (the stock DistributedFileSystem, or Canopy's own {@code CanopyFileSystem}, which keeps files up to 64 KB in the
 * database: every suite runs with both, the {@code CanopyClientContract*} suites with Canopy's), and HDFS's own
 * contract options ({@code contract/canopy-hdfs.xml}).
 */
public final class CanopyContract extends AbstractFSContract {
  static final String OPTIONS = "contract/canopy-hdfs.xml";

  private final boolean canopyClient;

  /** With the stock client. */
  public CanopyContract(Configuration conf) {
    this(conf, false);
  }

  /** With Canopy's client when {@code canopyClient}, else the stock one. */
  public CanopyContract(Configuration conf, boolean canopyClient) {
    super(conf);
    this.canopyClient = canopyClient;
    addConfResource(OPTIONS);
  }

  @Override
  public void init() throws IOException {
    super.init();
    // a missing resource would silently turn every option off and skip most tests
    if (!isSupported(ContractOptions.IS_CASE_SENSITIVE, false)) {
      throw new IllegalStateException("contract options " + OPTIONS + " not loaded");
    }
  }

  @Override
  public FileSystem getTestFileSystem() {
    return canopyClient ? SharedContractCluster.canopyFileSystem() : SharedContractCluster.fileSystem();
  }

  @Override
  public String getScheme() {
    return "hdfs";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test"); // as HDFS's binding
  }
}

package io.canopy.it.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractOptions;

/**
 * Hadoop's FileSystem contract bound to Canopy: the {@code hdfs} scheme, the stock DistributedFileSystem client of
 * the {@link SharedContractCluster}, and HDFS's own contract options ({@code contract/canopy-hdfs.xml}).
 */
public final class CanopyContract extends AbstractFSContract {
  static final String OPTIONS = "contract/canopy-hdfs.xml";

  public CanopyContract(Configuration conf) {
    super(conf);
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
    return SharedContractCluster.fileSystem();
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

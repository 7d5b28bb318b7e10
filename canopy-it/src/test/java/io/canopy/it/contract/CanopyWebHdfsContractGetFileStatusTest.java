package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** Hadoop's GetFileStatus contract suite on Canopy's WebHDFS. */
@ExtendWith(SharedContractCluster.class)
class CanopyWebHdfsContractGetFileStatusTest extends AbstractContractGetFileStatusTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyWebHdfsContract(conf);
  }
}

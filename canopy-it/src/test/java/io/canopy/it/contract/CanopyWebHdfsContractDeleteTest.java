package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** Hadoop's Delete contract suite on Canopy's WebHDFS. */
@ExtendWith(SharedContractCluster.class)
class CanopyWebHdfsContractDeleteTest extends AbstractContractDeleteTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyWebHdfsContract(conf);
  }
}

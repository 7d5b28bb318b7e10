package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSetTimesTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** Hadoop's SetTimes contract suite on Canopy's WebHDFS. */
@ExtendWith(SharedContractCluster.class)
class CanopyWebHdfsContractSetTimesTest extends AbstractContractSetTimesTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyWebHdfsContract(conf);
  }
}

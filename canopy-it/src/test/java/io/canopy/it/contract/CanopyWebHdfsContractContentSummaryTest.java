package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** Hadoop's ContentSummary contract suite on Canopy's WebHDFS. */
@ExtendWith(SharedContractCluster.class)
class CanopyWebHdfsContractContentSummaryTest extends AbstractContractContentSummaryTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyWebHdfsContract(conf);
  }
}

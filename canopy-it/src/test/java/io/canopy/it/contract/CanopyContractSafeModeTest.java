package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSafeModeTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** Hadoop's SafeMode contract suite on Canopy. */
@ExtendWith(SharedContractCluster.class)
class CanopyContractSafeModeTest extends AbstractContractSafeModeTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyContract(conf);
  }
}

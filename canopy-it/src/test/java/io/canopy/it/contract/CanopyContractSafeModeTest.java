package io.canopy.it.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.contract.AbstractContractSafeModeTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hadoop's SafeMode contract suite on Canopy. HDFS runs it on a cluster of its own; the cluster here is shared, so
 * safe mode is left after the test even when it failed half-way (every later suite would be refused otherwise).
 */
@ExtendWith(SharedContractCluster.class)
class CanopyContractSafeModeTest extends AbstractContractSafeModeTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyContract(conf);
  }

  @AfterEach
  void leaveSafeMode() throws IOException {
    ((SafeMode) SharedContractCluster.fileSystem()).setSafeMode(SafeModeAction.LEAVE);
  }
}

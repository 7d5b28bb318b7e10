package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hadoop's Create contract suite on Canopy's WebHDFS. {@code testSyncable} is skipped: HDFS's contract options
 * declare hflush and hsync, which Hadoop's WebHdfsFileSystem output stream (a buffered HTTP upload) does not offer
 * against any server.
 */
@ExtendWith(SharedContractCluster.class)
class CanopyWebHdfsContractCreateTest extends AbstractContractCreateTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyWebHdfsContract(conf);
  }

  @Override
  @Test
  public void testSyncable() {
    Assumptions.abort("WebHdfsFileSystem's output stream offers no hflush/hsync (a client limitation)");
  }
}

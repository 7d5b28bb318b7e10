package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hadoop's Seek contract suite on Canopy's WebHDFS. Three tests are skipped as Hadoop skips them in its own WebHDFS
 * binding (TestRouterWebHDFSContractSeek): Hadoop's WebHdfsFileSystem input stream checks neither negative nor
 * past-the-end seeks nor a closed stream before its next read, whatever the server.
 */
@ExtendWith(SharedContractCluster.class)
class CanopyWebHdfsContractSeekTest extends AbstractContractSeekTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyWebHdfsContract(conf);
  }

  private static void clientLimitation() {
    Assumptions.abort("WebHdfsFileSystem's input stream does not check this (a client limitation; Hadoop skips it "
        + "in its WebHDFS contract binding too)");
  }

  @Override
  @Test
  public void testNegativeSeek() {
    clientLimitation();
  }

  @Override
  @Test
  public void testSeekReadClosedFile() {
    clientLimitation();
  }

  @Override
  @Test
  public void testSeekPastEndOfFileThenReseekAndRead() {
    clientLimitation();
  }
}

package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's SafeMode contract suite on Canopy, with Canopy's client ({@code CanopyFileSystem}) as the file system. */
class CanopyClientContractSafeModeTest extends CanopyContractSafeModeTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyContract(conf, true);
  }
}

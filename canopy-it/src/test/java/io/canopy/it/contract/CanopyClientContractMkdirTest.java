package io.canopy.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Mkdir contract suite on Canopy, with Canopy's client ({@code CanopyFileSystem}) as the file system. */
class CanopyClientContractMkdirTest extends CanopyContractMkdirTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CanopyContract(conf, true);
  }
}

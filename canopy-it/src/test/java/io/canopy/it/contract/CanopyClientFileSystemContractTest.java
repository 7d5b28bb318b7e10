package io.canopy.it.contract;

import io.canopy.client.CanopyFileSystem;
import org.apache.hadoop.conf.Configuration;

/** Hadoop's FileSystemContractBaseTest on Canopy, with Canopy's client ({@code CanopyFileSystem}) as the file system. */
class CanopyClientFileSystemContractTest extends CanopyFileSystemContractTest {
  @Override
  void configureClient(Configuration conf) {
    conf.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
  }
}

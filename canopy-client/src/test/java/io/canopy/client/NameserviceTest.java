package io.canopy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class NameserviceTest {
  @Test
  void configuredAddressesReadBackInOrderAndBecomeTheDefaultFileSystem() {
    Configuration conf = new Configuration(false);
    Nameservice.configure(conf, "canopy", List.of("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"),
        Nameservice.HADOOP_PROVIDER);
    assertEquals(List.of("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"),
        Nameservice.rpcAddresses(conf, "canopy"));
    assertEquals("hdfs://canopy", conf.get("fs.defaultFS"));
    assertEquals("nn1,nn2,nn3", conf.get("dfs.ha.namenodes.canopy"));
    assertEquals(Nameservice.HADOOP_PROVIDER, conf.get("dfs.client.failover.proxy.provider.canopy"));
  }

  @Test
  void datanodesGetEachNamenodesServiceAddress() {
    Configuration conf = new Configuration(false);
    Nameservice.configure(conf, "canopy", List.of("127.0.0.1:9001", "127.0.0.1:9002"),
        List.of("127.0.0.1:9101", "127.0.0.1:9102"), Nameservice.HADOOP_PROVIDER);
    assertEquals("127.0.0.1:9101", conf.get("dfs.namenode.servicerpc-address.canopy.nn1"));
    assertEquals("127.0.0.1:9102", conf.get("dfs.namenode.servicerpc-address.canopy.nn2"));
    assertEquals(List.of("127.0.0.1:9001", "127.0.0.1:9002"), Nameservice.rpcAddresses(conf, "canopy"));
    assertThrows(IllegalArgumentException.class, () -> Nameservice.configure(new Configuration(false), "canopy",
        List.of("127.0.0.1:9001", "127.0.0.1:9002"), List.of("127.0.0.1:9101"), Nameservice.HADOOP_PROVIDER));
  }

  @Test
  void aNameserviceWithoutNamenodesIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> Nameservice.configure(new Configuration(false), "canopy", List.of(), Nameservice.HADOOP_PROVIDER));
    assertEquals(List.of(), Nameservice.rpcAddresses(new Configuration(false), "canopy"));
  }
}

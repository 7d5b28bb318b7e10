package io.canopy.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.ClientDatanodeProtocol;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Calls a running DataNode's {@code ClientDatanodeProtocol} on its IPC port, as {@code hdfs dfsadmin} does. The
 * caller must be the user the datanode runs as (the same user that ran {@code canopy up}): the calls are for
 * superusers.
 */
final class DatanodeAdmin {
  private final Configuration conf;

  DatanodeAdmin(Configuration base) {
    conf = new Configuration(base);
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    conf.setInt("ipc.client.connect.timeout", 5000);
    conf.setInt("ipc.client.rpc-timeout.ms", 30_000);
  }

  /**
   * {@code hdfs dfsadmin -refreshNamenodes 127.0.0.1:IPC_PORT}: the datanode reads a new {@code Configuration} (its
   * class path's {@code core-site.xml} and {@code hdfs-site.xml}, see {@link DaemonLauncher}) and starts talking to
   * namenodes it lists that it did not know, and stops talking to those it no longer lists.
   */
  void refreshNamenodes(int ipcPort) throws IOException {
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", ipcPort);
    ClientDatanodeProtocol datanode = DFSUtilClient.createClientDatanodeProtocolProxy(address,
        UserGroupInformation.getCurrentUser(), conf, NetUtils.getDefaultSocketFactory(conf));
    try {
      datanode.refreshNamenodes();
    } finally {
      RPC.stopProxy(datanode);
    }
  }
}

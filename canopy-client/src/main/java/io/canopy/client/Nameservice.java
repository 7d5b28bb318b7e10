package io.canopy.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;

/**
 * The HA-style nameservice that names a Canopy cluster's namenodes (docs/references.md [Design] s.8, s.9):
 * {@code hdfs://NAME} with {@code dfs.ha.namenodes.NAME} listing one id per namenode and
 * {@code dfs.namenode.rpc-address.NAME.ID} giving its address (and, for datanodes,
 * {@code dfs.namenode.servicerpc-address.NAME.ID} its service address). Stock DataNodes read it to talk to every
 * namenode; clients read it to pick and fail over between them.
 */
public final class Nameservice {
  /** The nameservice name {@code canopy up} and the test clusters use. */
  public static final String DEFAULT_NAME = "canopy";
  /** Hadoop's failover proxy provider for unmodified clients: sticks to the first namenode that answers. */
  public static final String HADOOP_PROVIDER =
      "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider";

  /** HDFS's per-namenode service RPC address key, before {@code NAME.ID}. */
  public static final String SERVICE_RPC_ADDRESS_PREFIX = "dfs.namenode.servicerpc-address.";

  private Nameservice() {
  }

  /**
   * Sets {@code conf} to reach the namenodes at {@code rpcAddresses} (host:port each) as {@code hdfs://name}, with
   * {@code providerClass} choosing among them, and makes it the default file system.
   */
  public static void configure(Configuration conf, String name, List<String> rpcAddresses, String providerClass) {
    configure(conf, name, rpcAddresses, List.of(), providerClass);
  }

  /**
   * As {@link #configure(Configuration, String, List, String)}, and each namenode's service RPC address (host:port,
   * in the same order), where datanodes send DatanodeProtocol: HDFS's
   * {@code dfs.namenode.servicerpc-address.NAME.ID}. Datanodes need them (a namenode refuses DatanodeProtocol on its
   * client port); clients need none.
   */
  public static void configure(Configuration conf, String name, List<String> rpcAddresses,
      List<String> serviceRpcAddresses, String providerClass) {
    if (rpcAddresses.isEmpty()) {
      throw new IllegalArgumentException("nameservice " + name + " needs at least one namenode address");
    }
    if (!serviceRpcAddresses.isEmpty() && serviceRpcAddresses.size() != rpcAddresses.size()) {
      throw new IllegalArgumentException("nameservice " + name + ": " + rpcAddresses.size() + " namenode addresses "
          + "but " + serviceRpcAddresses.size() + " service addresses; give one per namenode or none");
    }
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < rpcAddresses.size(); i++) {
      String id = "nn" + (i + 1);
      ids.add(id);
      conf.set(HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + "." + name + "." + id, rpcAddresses.get(i));
      if (!serviceRpcAddresses.isEmpty()) {
        conf.set(SERVICE_RPC_ADDRESS_PREFIX + name + "." + id, serviceRpcAddresses.get(i));
      }
    }
    conf.set(HdfsClientConfigKeys.DFS_NAMESERVICES, name);
    conf.set(HdfsClientConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + "." + name, String.join(",", ids));
    conf.set(HdfsClientConfigKeys.Failover.PROXY_PROVIDER_KEY_PREFIX + "." + name, providerClass);
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, uri(name).toString());
  }

  public static URI uri(String name) {
    return URI.create("hdfs://" + name);
  }

  /** The namenode addresses {@code conf} lists for nameservice {@code name}, in id order; empty when none. */
  public static List<String> rpcAddresses(Configuration conf, String name) {
    List<String> addresses = new ArrayList<>();
    for (String id : conf.getTrimmedStringCollection(HdfsClientConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + "." + name)) {
      String address = conf.getTrimmed(HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + "." + name + "." + id);
      if (address != null && !address.isEmpty()) {
        addresses.add(address);
      }
    }
    return addresses;
  }
}

package io.canopy.namenode.rpc;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.fs.NotSupported;
import java.lang.reflect.Proxy;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.ipc.RpcNoSuchProtocolException;

/**
 * DatanodeProtocol as the client port answers it: every call refused. Reports there would let any client make the
 * namenode forget or delete replicas, so datanodes speak only to the service port; the answer is the exception class
 * Hadoop IPC gives for a protocol a server does not have, with a message saying where datanodes belong.
 */
final class ClientPortDatanodeRefusal {
  private ClientPortDatanodeRefusal() {
  }

  /** The refusing protocol; {@code serviceAddress} is host:port of this namenode's service RPC server. */
  static DatanodeProtocol create(String serviceAddress) {
    String message = "DatanodeProtocol is not served on this namenode's client port: datanodes report to its "
        + "service port " + serviceAddress + " (" + NameNodeConfig.SERVICE_RPC_ADDRESS + "); configure them with "
        + "dfs.namenode.servicerpc-address (or dfs.namenode.servicerpc-address.NAMESERVICE.NAMENODE)";
    return (DatanodeProtocol) Proxy.newProxyInstance(DatanodeProtocol.class.getClassLoader(),
        new Class<?>[] {DatanodeProtocol.class}, (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.getName().equals("toString") ? "ClientPortDatanodeRefusal"
                : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : proxy == args[0];
          }
          throw NotSupported.oneLine(new RpcNoSuchProtocolException(message));
        });
  }
}

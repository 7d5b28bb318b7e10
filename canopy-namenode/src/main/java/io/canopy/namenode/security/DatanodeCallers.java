package io.canopy.namenode.security;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * With Kerberos, only datanodes call {@code DatanodeProtocol}: the caller must have authenticated with Kerberos as
 * {@code dfs.datanode.kerberos.principal} ({@code _HOST} resolved from the caller's address), the check HDFS's
 * service-level authorization makes of the protocol's client principal. Without it any Kerberos user could register
 * as a datanode and be handed the block keys (and forge block tokens), or report blocks in a datanode's name. Without
 * Kerberos the protocol is served as before (design 023).
 */
public final class DatanodeCallers {
  private DatanodeCallers() {
  }

  /** {@code datanodes}, checking every caller when {@code conf} asks for Kerberos; itself otherwise. */
  public static DatanodeProtocol checked(DatanodeProtocol datanodes, Configuration conf) {
    if (!KerberosLogin.kerberos(conf)) {
      return datanodes;
    }
    String principal = conf.getTrimmed(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, "");
    return (DatanodeProtocol) Proxy.newProxyInstance(DatanodeProtocol.class.getClassLoader(),
        new Class<?>[] {DatanodeProtocol.class}, (proxy, method, args) -> {
          if (method.getDeclaringClass() != Object.class) {
            check(principal, method.getName());
          }
          try {
            return method.invoke(datanodes, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static void check(String principalPattern, String call) throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    InetAddress address = Server.getRemoteIp();
    if (caller == null || address == null) {
      throw new AccessControlException("DatanodeProtocol." + call + " is served to datanodes over RPC only");
    }
    String expected = principalPattern.isEmpty() ? null : SecurityUtil.getServerPrincipal(principalPattern, address);
    if (caller.getAuthenticationMethod() != AuthenticationMethod.KERBEROS || expected == null
        || !expected.equals(caller.getUserName())) {
      throw new AccessControlException("DatanodeProtocol." + call + " refused to " + caller.getUserName() + " (auth:"
          + caller.getAuthenticationMethod() + "): only datanodes, authenticated with Kerberos as "
          + (expected == null ? DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY + " (unset)" : expected)
          + ", call it");
    }
  }
}

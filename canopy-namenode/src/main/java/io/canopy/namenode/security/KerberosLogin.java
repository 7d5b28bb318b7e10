package io.canopy.namenode.security;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * The namenode's Kerberos identity, as HDFS's namenode takes it: with {@code hadoop.security.authentication=kerberos}
 * the process logs in from {@code dfs.namenode.keytab.file} as {@code dfs.namenode.kerberos.principal} ({@code _HOST}
 * replaced by the RPC address's host name) before it serves; the RPC servers then accept SASL (Kerberos and
 * delegation tokens) only. With simple authentication nothing is done (and nothing global is touched).
 */
public final class KerberosLogin {
  private KerberosLogin() {
  }

  /** Whether {@code conf} asks for Kerberos. */
  public static boolean kerberos(Configuration conf) {
    return SecurityUtil.getAuthenticationMethod(conf) == AuthenticationMethod.KERBEROS;
  }

  /** Logs this process in as the namenode's principal when {@code conf} asks for Kerberos; a missing key is named. */
  public static void asNamenode(Configuration conf, InetSocketAddress rpcAddress) throws IOException {
    if (!kerberos(conf)) {
      return;
    }
    for (String key : new String[] {DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY}) {
      if (conf.getTrimmed(key, "").isEmpty()) {
        throw new IOException(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION + "=kerberos needs "
            + key + " for the namenode");
      }
    }
    UserGroupInformation.setConfiguration(conf);
    String host = rpcAddress == null || rpcAddress.getAddress() == null || rpcAddress.getAddress().isAnyLocalAddress()
        ? null : rpcAddress.getHostName();
    SecurityUtil.login(conf, DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, host);
  }
}

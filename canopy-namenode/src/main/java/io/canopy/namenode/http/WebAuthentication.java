package io.canopy.namenode.http;

import io.canopy.namenode.security.KerberosLogin;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.web.AuthFilter;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.authentication.server.KerberosAuthenticationHandler;
import org.apache.hadoop.security.authorize.ProxyUsers;

/**
 * SPNEGO in front of the HTTP calls that act as a user, as HDFS's namenode puts it there: with Kerberos, HDFS's own
 * {@code AuthFilter} (Hadoop's authentication filter with the Kerberos handler, which lets WebHDFS requests that carry
 * a {@code delegation} token through, for {@link HttpCallers} to verify) over {@code /webhdfs/v1/*} and {@code /fsck}.
 * Its principal is HDFS's {@code dfs.web.authentication.kerberos.principal} ({@code _HOST} from the HTTP address; by
 * default {@code *}: every {@code HTTP/} principal of the keytab, so that clients naming the server by address or by
 * name both find theirs), its keytab {@code dfs.web.authentication.kerberos.keytab}, else the namenode's. The status
 * page and the metrics, which act as no user, stay open, as in HDFS without {@code hadoop.http.authentication} set.
 */
final class WebAuthentication {
  static final String DEFAULT_PRINCIPAL = "*";

  private WebAuthentication() {
  }

  /** HttpServer2's servlet that changes log levels (the audit logger's too): administrators only with Kerberos. */
  static final String LOG_LEVEL_PATH = "/logLevel";

  /**
   * With Kerberos, HttpServer2's administrator checks on ({@code hadoop.security.authorization} in the HTTP server's
   * own configuration only: service-level authorization of RPC stays off) with the superuser and the superuser group
   * as administrators, so that {@code /logLevel} (behind SPNEGO, {@link #install}) answers them alone: without it
   * anyone could turn the audit log off. Nothing changes with simple authentication, as in HDFS.
   */
  static void restrictAdministration(HttpServer2.Builder builder, Configuration httpConf, Configuration conf)
      throws IOException {
    if (!KerberosLogin.kerberos(conf)) {
      return;
    }
    httpConf.setBoolean(org.apache.hadoop.fs.CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHORIZATION, true);
    String superuser = org.apache.hadoop.security.UserGroupInformation.getLoginUser().getShortUserName();
    builder.setACL(new org.apache.hadoop.security.authorize.AccessControlList(superuser,
        io.canopy.namenode.fs.PermissionSettings.superGroup(conf)));
  }

  /** Adds the filter to {@code server} (before it starts) when {@code conf} asks for Kerberos. */
  static void install(HttpServer2 server, Configuration conf, String host, String... paths) throws IOException {
    if (!KerberosLogin.kerberos(conf)) {
      return;
    }
    String keytab = conf.getTrimmed(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY,
        conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, ""));
    if (keytab.isEmpty()) {
      throw new IOException("SPNEGO for WebHDFS and fsck needs a keytab with HTTP/ principals: set "
          + DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY + " or " + DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY);
    }
    String principal = conf.getTrimmed(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY,
        DEFAULT_PRINCIPAL);
    Map<String, String> parameters = new HashMap<>();
    parameters.put("type", KerberosAuthenticationHandler.TYPE);
    parameters.put(KerberosAuthenticationHandler.PRINCIPAL,
        principal.equals(DEFAULT_PRINCIPAL) ? principal : SecurityUtil.getServerPrincipal(principal, host));
    parameters.put(KerberosAuthenticationHandler.KEYTAB, keytab);
    parameters.put("cookie.path", "/");
    // proxy users as HDFS's filter initializer passes them (the filter authorizes doas itself)
    for (Map.Entry<String, String> entry : conf.getPropsWithPrefix(ProxyUsers.CONF_HADOOP_PROXYUSER).entrySet()) {
      parameters.put("proxyuser" + entry.getKey(), entry.getValue());
    }
    HttpServer2.defineFilter(server.getWebAppContext(), "canopy-spnego", AuthFilter.class.getName(), parameters,
        paths);
  }
}

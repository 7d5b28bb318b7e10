package io.canopy.namenode.http;

import io.canopy.namenode.security.DelegationTokenCalls;
import io.canopy.namenode.security.KerberosLogin;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.hdfs.web.resources.DelegationParam;
import org.apache.hadoop.hdfs.web.resources.DoAsParam;
import org.apache.hadoop.hdfs.web.resources.UserParam;
import org.apache.hadoop.http.HtmlQuoting;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.authorize.ProxyUsers;

/**
 * Who an HTTP call that acts as a user (WebHDFS, fsck) acts as, as HDFS's namenode decides it. With simple
 * authentication: {@code user.name} (else {@code hadoop.http.staticuser.user}) and {@code doas} for an allowed proxy
 * user. With Kerberos: the user SPNEGO authenticated (HDFS's {@code AuthFilter} in front of {@code /webhdfs/v1} and
 * {@code /fsck}, see {@link WebAuthentication}), or, for WebHDFS, the owner of the delegation token the
 * {@code delegation} parameter carries, verified against the keys in the database ({@link DelegationTokenCalls#verify}:
 * Hadoop's {@code JspHelper} verifies one only when its servlet context holds HDFS's own namenode, and would otherwise
 * believe any token).
 */
public final class HttpCallers {
  private final Configuration conf;
  private final DelegationTokenCalls tokens;
  private final boolean kerberos;

  public HttpCallers(Configuration conf, DelegationTokenCalls tokens) {
    this.conf = conf;
    this.tokens = tokens;
    this.kerberos = KerberosLogin.kerberos(conf);
  }

  /** Whether the namenode authenticates with Kerberos (and HTTP calls with SPNEGO or a delegation token). */
  boolean kerberos() {
    return kerberos;
  }

  /** The namenode's delegation-token calls (WebHDFS's GET/RENEW/CANCELDELEGATIONTOKEN and its redirects). */
  DelegationTokenCalls tokens() {
    return tokens;
  }

  /** The user a WebHDFS {@code request} acts as; refused (AccessControlException, InvalidToken) when it cannot be told. */
  UserGroupInformation of(HttpServletRequest request) throws IOException {
    return of(request, false);
  }

  /**
   * The user {@code request} acts as; {@code ugiParameter}: with simple authentication, HDFS's old {@code ugi}
   * parameter names the user when {@code user.name} does not (as HDFS's fsck servlet reads it).
   */
  UserGroupInformation of(HttpServletRequest request, boolean ugiParameter) throws IOException {
    // decided by this namenode's configuration alone, never by the JVM-wide Kerberos switch Hadoop's JspHelper reads
    // (a process running namenodes and datanodes of other configurations could flip it)
    String remoteUser;
    AuthenticationMethod method;
    if (kerberos) {
      String delegation = parameter(request, DelegationParam.NAME);
      if (delegation != null) {
        return tokens.verify(delegation); // user.name and doas do not apply to a token's owner, as in HDFS
      }
      remoteUser = request.getRemoteUser(); // SPNEGO's user (the filter has applied and authorized doas)
      if (remoteUser == null) {
        throw new AccessControlException("Security enabled but user not authenticated by filter");
      }
      method = AuthenticationMethod.KERBEROS;
    } else {
      String named = parameter(request, UserParam.NAME);
      if (named == null && ugiParameter) {
        String ugi = parameter(request, "ugi");
        named = ugi == null ? null : ugi.split(",")[0];
      }
      remoteUser = named != null ? named : JspHelper.getDefaultWebUserName(conf);
      method = AuthenticationMethod.SIMPLE;
    }
    UserGroupInformation user = UserGroupInformation.createRemoteUser(remoteUser);
    user.setAuthenticationMethod(method);
    String doAs = parameter(request, DoAsParam.NAME);
    if (doAs != null && !doAs.equals(remoteUser)) {
      user = UserGroupInformation.createProxyUser(doAs, user);
      ProxyUsers.authorize(user, JspHelper.getRemoteAddr(request));
    }
    return user;
  }

  /** A parameter's value by name in any case (as WebHDFS reads names), unescaped; null when absent. */
  static String parameter(HttpServletRequest request, String name) {
    for (Map.Entry<String, String[]> entry : request.getParameterMap().entrySet()) {
      if (HtmlQuoting.unquoteHtmlChars(entry.getKey()).toLowerCase(Locale.ROOT).equals(name)
          && entry.getValue().length > 0) {
        return HtmlQuoting.unquoteHtmlChars(entry.getValue()[0]); // HttpServer2's filter escaped it
      }
    }
    return null;
  }
}

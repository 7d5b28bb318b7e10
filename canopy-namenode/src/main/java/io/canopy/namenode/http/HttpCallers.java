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
import org.apache.hadoop.http.HtmlQuoting;
import org.apache.hadoop.security.UserGroupInformation;

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
    if (kerberos) {
      String delegation = delegation(request);
      if (delegation != null) {
        return tokens.verify(delegation);
      }
      // the filter's user (getRemoteUser), or "Security enabled but user not authenticated by filter"
    }
    return JspHelper.getUGI(null, request, conf, UserGroupInformation.AuthenticationMethod.KERBEROS, ugiParameter);
  }

  /** The {@code delegation} parameter (any case, as WebHDFS reads names), or null. */
  static String delegation(HttpServletRequest request) {
    for (Map.Entry<String, String[]> entry : request.getParameterMap().entrySet()) {
      if (HtmlQuoting.unquoteHtmlChars(entry.getKey()).toLowerCase(Locale.ROOT).equals(DelegationParam.NAME)
          && entry.getValue().length > 0) {
        return HtmlQuoting.unquoteHtmlChars(entry.getValue()[0]); // HttpServer2's filter escaped it
      }
    }
    return null;
  }
}

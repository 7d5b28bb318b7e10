package io.canopy.namenode.http;

import io.canopy.namenode.security.DelegationTokenCalls;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.web.JsonUtil;
import org.apache.hadoop.hdfs.web.WebHdfsConstants;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.PutOpParam;
import org.apache.hadoop.hdfs.web.resources.RenewerParam;
import org.apache.hadoop.hdfs.web.resources.TokenArgumentParam;
import org.apache.hadoop.hdfs.web.resources.TokenKindParam;
import org.apache.hadoop.hdfs.web.resources.TokenServiceParam;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;

/**
 * WebHDFS's delegation-token operations, as HDFS's namenode answers them: GETDELEGATIONTOKEN (a token for the caller,
 * who must have authenticated with SPNEGO, of kind {@code WEBHDFS delegation} unless {@code kind} says otherwise, renewed
 * by the caller unless {@code renewer} names another),
 * RENEWDELEGATIONTOKEN (by its renewer, with SPNEGO) and CANCELDELEGATIONTOKEN (by its owner or renewer), with the
 * same rules and the same shared tokens as the RPC calls ({@link DelegationTokenCalls}). With simple authentication
 * GETDELEGATIONTOKEN answers a null token, as HDFS's does, and renewal or cancellation is refused: no token exists.
 * Tokens also ride on the redirects to datanodes ({@link #forRedirect}).
 */
final class WebHdfsTokens {
  private final HttpCallers callers;

  WebHdfsTokens(HttpCallers callers) {
    this.callers = callers;
  }

  Map<HttpOpParam.Op, WebHdfsHandler> handlers() {
    Map<HttpOpParam.Op, WebHdfsHandler> handlers = new java.util.HashMap<>();
    handlers.put(GetOpParam.Op.GETDELEGATIONTOKEN, this::issue);
    handlers.put(PutOpParam.Op.RENEWDELEGATIONTOKEN, request -> WebHdfsAnswer.json(JsonUtil.toJsonString("long",
        callers.tokens().renew(request.user(), argument(request, "renewed")))));
    handlers.put(PutOpParam.Op.CANCELDELEGATIONTOKEN, request -> {
      callers.tokens().cancel(request.user(), argument(request, "cancelled"));
      return WebHdfsAnswer.empty();
    });
    return handlers;
  }

  private WebHdfsAnswer issue(WebHdfsRequest request) throws IOException {
    if (!callers.kerberos()) {
      return WebHdfsAnswer.json(JsonUtil.toJsonString((Token<?>) null)); // simple authentication: none, as HDFS
    }
    // no renewer named: the caller renews it, as HDFS's namenode decides (WebHdfsFileSystem names none)
    String renewer = request.param(RenewerParam.class).getValue();
    Token<DelegationTokenIdentifier> token = callers.tokens().issue(request.user(),
        new Text(renewer == null || renewer.isEmpty() ? request.user().getShortUserName() : renewer));
    String kind = request.param(TokenKindParam.class).getValue();
    token.setKind(kind == null ? WebHdfsConstants.WEBHDFS_TOKEN_KIND : new Text(kind));
    String service = request.param(TokenServiceParam.class).getValue();
    if (service != null) {
      token.setService(new Text(service));
    }
    return WebHdfsAnswer.json(JsonUtil.toJsonString(token));
  }

  /**
   * The {@code delegation} parameter of a redirect to a datanode, which calls this namenode back with it: the token
   * the request came with, else a new one for the caller (SPNEGO authenticated) renewed by itself, as HDFS's namenode
   * does; empty with simple authentication.
   */
  String forRedirect(WebHdfsRequest request) throws IOException {
    if (!callers.kerberos()) {
      return "";
    }
    String presented = request.value(org.apache.hadoop.hdfs.web.resources.DelegationParam.NAME);
    if (presented != null) {
      // the token HttpCallers verified, encoded again: nothing of the request's own text reaches the Location
      Token<DelegationTokenIdentifier> token = new Token<>();
      token.decodeFromUrlString(presented);
      return token.encodeToUrlString();
    }
    Token<DelegationTokenIdentifier> token = callers.tokens().issue(request.user(),
        new Text(request.user().getShortUserName()));
    token.setKind(WebHdfsConstants.WEBHDFS_TOKEN_KIND);
    return token.encodeToUrlString();
  }

  /** The token to renew or cancel; refused with simple authentication, which issues none. */
  private Token<DelegationTokenIdentifier> argument(WebHdfsRequest request, String what) throws IOException {
    if (!callers.kerberos()) {
      throw new org.apache.hadoop.security.AccessControlException("Delegation tokens cannot be " + what
          + ": security is off (hadoop.security.authentication=simple), no token was issued");
    }
    String encoded = request.required("delegation token operation", TokenArgumentParam.class).getValue();
    Token<DelegationTokenIdentifier> token = new Token<>();
    token.decodeFromUrlString(encoded);
    return token;
  }
}

package io.canopy.namenode.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.apache.hadoop.security.token.Token;

/**
 * {@code ClientProtocol}'s delegation-token calls, with HDFS's rules: only a caller who authenticated with Kerberos
 * (not with a token) gets or renews a token; the token names its owner, real user and renewer; only the renewer
 * renews, only the owner or the renewer cancels. With security off there is no token to give (HDFS answers
 * null, and {@code FileSystem.addDelegationTokens} skips it).
 */
public final class DelegationTokenCalls {
  private final SharedDelegationTokens manager;
  private final String whyNone;

  private DelegationTokenCalls(SharedDelegationTokens manager, String whyNone) {
    this.manager = manager;
    this.whyNone = whyNone;
  }

  /** Tokens from {@code manager}, which the namenode has started. */
  public static DelegationTokenCalls of(SharedDelegationTokens manager) {
    return new DelegationTokenCalls(manager, null);
  }

  /** No tokens: security is off (getDelegationToken answers null), or {@code whyNone} says why they are refused. */
  public static DelegationTokenCalls none(String whyNone) {
    return new DelegationTokenCalls(null, whyNone);
  }

  /** A token for the RPC caller; null with security off. */
  public Token<DelegationTokenIdentifier> issue(Text renewer) throws IOException {
    return issue(manager == null ? null : rpcCaller(), renewer);
  }

  /** A token for {@code caller} (an RPC caller, or a WebHDFS caller SPNEGO authenticated); null with security off. */
  public Token<DelegationTokenIdentifier> issue(UserGroupInformation requester, Text renewer) throws IOException {
    if (manager == null) {
      if (whyNone == null) {
        return null;
      }
      throw new IOException("Delegation tokens are not available: " + whyNone);
    }
    UserGroupInformation caller = kerberosCaller(requester, "issued");
    Text realUser = caller.getRealUser() == null ? null : new Text(caller.getRealUser().getUserName());
    DelegationTokenIdentifier identifier = new DelegationTokenIdentifier(new Text(caller.getUserName()),
        renewer == null ? new Text() : renewer, realUser);
    try {
      return new Token<>(identifier, manager);
    } catch (UncheckedIOException e) {
      throw e.getCause(); // not stored: no namenode would accept it (SharedDelegationTokens.storeToken)
    }
  }

  /** The token's new expiry time. */
  public long renew(Token<DelegationTokenIdentifier> token) throws IOException {
    return renew(rpcCaller(), token);
  }

  /** The token's new expiry time, renewed by {@code requester}, who must be its renewer (and use Kerberos). */
  public long renew(UserGroupInformation requester, Token<DelegationTokenIdentifier> token) throws IOException {
    SharedDelegationTokens running = running("renewed");
    return running.renewToken(token, kerberosCaller(requester, "renewed").getShortUserName());
  }

  /** As HDFS: the owner or the renewer cancels, however authenticated (a job cancels its own token when done). */
  public void cancel(Token<DelegationTokenIdentifier> token) throws IOException {
    cancel(rpcCaller(), token);
  }

  /** {@link #cancel(Token)} asked by {@code requester}. */
  public void cancel(UserGroupInformation requester, Token<DelegationTokenIdentifier> token) throws IOException {
    SharedDelegationTokens running = running("cancelled");
    running.cancelToken(token, requester.getUserName());
  }

  /**
   * The user a token sent over HTTP ({@code delegation=}, URL-safe encoding) stands for, once the shared keys verify
   * it and it is neither expired nor cancelled; the user holds the token and authenticated with it.
   */
  public UserGroupInformation verify(String urlString) throws IOException {
    SharedDelegationTokens running = running("verified");
    Token<DelegationTokenIdentifier> token = new Token<>();
    DelegationTokenIdentifier identifier = new DelegationTokenIdentifier();
    try {
      token.decodeFromUrlString(urlString);
      identifier.readFields(new java.io.DataInputStream(new java.io.ByteArrayInputStream(token.getIdentifier())));
    } catch (IOException | RuntimeException e) {
      throw new InvalidToken("The delegation token is malformed: " + e.getMessage());
    }
    running.verifyToken(identifier, token.getPassword());
    UserGroupInformation user = identifier.getUser();
    user.addToken(token);
    user.setAuthenticationMethod(AuthenticationMethod.TOKEN);
    return user;
  }

  /**
   * The RPC caller; refused outside an RPC call (this process, logged in as the namenode, must never be handed a
   * token in its own name by accident).
   */
  private static UserGroupInformation rpcCaller() throws AccessControlException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      throw new AccessControlException("delegation tokens are handled for RPC callers only");
    }
    return caller;
  }

  private SharedDelegationTokens running(String what) throws InvalidToken {
    if (manager == null) {
      throw new InvalidToken("Delegation tokens cannot be " + what + ": "
          + (whyNone == null ? "security is off (hadoop.security.authentication=simple), no token was issued" : whyNone));
    }
    return manager;
  }

  /** The caller, who must have authenticated with Kerberos (HDFS refuses a token holder, who could extend it). */
  private static UserGroupInformation kerberosCaller(UserGroupInformation caller, String what) throws IOException {
    AuthenticationMethod method = caller.getAuthenticationMethod();
    if (method == AuthenticationMethod.PROXY && caller.getRealUser() != null) {
      method = caller.getRealUser().getAuthenticationMethod();
    }
    if (method != AuthenticationMethod.KERBEROS && method != AuthenticationMethod.KERBEROS_SSL
        && method != AuthenticationMethod.CERTIFICATE) {
      throw new AccessControlException("Delegation Token can be " + what + " only with kerberos or web "
          + "authentication; " + caller.getUserName() + " authenticated with " + method);
    }
    return caller;
  }
}

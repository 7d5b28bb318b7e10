package io.canopy.namenode.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.namenode.fs.Caller;
import io.canopy.namenode.tx.ClientCall;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;

/** Who is calling: the RPC caller's user and address, or this process when called outside RPC (tests). */
final class CallerInfo {
  private CallerInfo() {
  }

  static String user() {
    return ugi().getShortUserName();
  }

  /** The caller's user and groups, the groups resolved on this server (Hadoop's configured group mapping). */
  static Caller caller() {
    return Caller.of(ugi());
  }

  /** The caller, with its groups as this namenode's group mapping resolves them. */
  static UserGroupInformation ugi() {
    UserGroupInformation caller = Server.getRemoteUser();
    try {
      return caller != null ? caller : UserGroupInformation.getCurrentUser();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the calling user", e);
    }
  }

  /** The caller's groups, as the namenode's group mapping resolves them (HDFS's server-side view). */
  static java.util.Set<String> groups() {
    UserGroupInformation caller = Server.getRemoteUser();
    try {
      return (caller != null ? caller : UserGroupInformation.getCurrentUser()).getGroupsSet();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the calling user", e);
    }
  }

  /**
   * The RPC call being served, as the retry cache keys it (Hadoop's client id and call id, and the client's retry
   * count), or null outside RPC or for a client that sends no client id.
   */
  static ClientCall call() {
    byte[] clientId = Server.getClientId();
    int callId = Server.getCallId();
    if (clientId == null || clientId.length == 0 || callId < 0) {
      return null;
    }
    StringBuilder hex = new StringBuilder(clientId.length * 2);
    for (byte b : clientId) {
      hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return new ClientCall(new RetryKey(hex.toString(), callId), Math.max(0, Server.getCallRetryCount()));
  }

  static String address() {
    String address = Server.getRemoteAddress();
    return address == null ? "127.0.0.1" : address;
  }
}

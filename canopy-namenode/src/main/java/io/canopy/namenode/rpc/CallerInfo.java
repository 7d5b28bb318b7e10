package io.canopy.namenode.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;

/** Who is calling: the RPC caller's user and address, or this process when called outside RPC (tests). */
final class CallerInfo {
  private CallerInfo() {
  }

  static String user() {
    UserGroupInformation caller = Server.getRemoteUser();
    try {
      return (caller != null ? caller : UserGroupInformation.getCurrentUser()).getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the calling user", e);
    }
  }

  static String address() {
    String address = Server.getRemoteAddress();
    return address == null ? "127.0.0.1" : address;
  }
}

package io.canopy.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;

/** Loopback port selection: keep a port a cluster used before when it is still free, else take a free one. */
public final class Ports {
  private static final int ATTEMPTS = 100;

  private Ports() {
  }

  /** Whether a server could bind 127.0.0.1:{@code port} now. */
  public static boolean isFree(int port) {
    if (port <= 0 || port > 65535) {
      return false;
    }
    try (ServerSocket socket = new ServerSocket()) {
      // Servers (Hadoop IPC, PostgreSQL) set SO_REUSEADDR, so a port in TIME_WAIT is free for them too.
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * {@code previous} when it is free and not in {@code taken}, else a free ephemeral port not in {@code taken}. The
   * result is added to {@code taken} so one plan never hands the same port to two roles.
   */
  public static int reuseOrPick(Integer previous, Set<Integer> taken) {
    if (previous != null && !taken.contains(previous) && isFree(previous)) {
      taken.add(previous);
      return previous;
    }
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = pickFree();
      if (!taken.contains(port)) {
        taken.add(port);
        return port;
      }
    }
    throw new CliException("Found no free port on 127.0.0.1 after " + ATTEMPTS + " attempts");
  }

  private static int pickFree() {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new CliException("Cannot bind any port on 127.0.0.1: " + e.getMessage());
    }
  }
}

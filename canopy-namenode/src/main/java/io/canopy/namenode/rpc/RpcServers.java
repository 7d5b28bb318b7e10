package io.canopy.namenode.rpc;

import io.canopy.namenode.security.SharedDelegationTokens;
import java.net.InetSocketAddress;
import org.apache.hadoop.ipc.RPC;

/**
 * A namenode's client and service RPC servers (see {@link RpcServerFactory}), started and stopped together: the
 * service server first, so a namenode that answers clients also hears its datanodes. With Kerberos they verify
 * delegation tokens with {@code tokens}, whose threads stop with them (null without).
 */
public record RpcServers(RPC.Server client, RPC.Server service, SharedDelegationTokens tokens) {
  public void start() {
    service.start();
    client.start();
  }

  public void stop() {
    client.stop();
    service.stop();
    if (tokens != null) {
      tokens.stopThreads();
    }
  }

  public InetSocketAddress clientAddress() {
    return client.getListenerAddress();
  }

  public InetSocketAddress serviceAddress() {
    return service.getListenerAddress();
  }

  /** Waits until both servers stopped. */
  public void join() throws InterruptedException {
    client.join();
    service.join();
  }
}

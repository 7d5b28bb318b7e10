package io.canopy.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.io.retry.RetryPolicies;
import org.apache.hadoop.io.retry.RetryProxy;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@link CanopyClientProtocol} for a file system URI, reached as ClientProtocol is: a logical nameservice URI through
 * {@link CanopyFailoverProxyProvider} with HDFS's failover-on-network-exception retry policy and its
 * {@code dfs.client.failover.*} settings, a {@code host:port} URI directly.
 */
public final class CanopyClientProxies {
  private CanopyClientProxies() {
  }

  /** The calls and what closes them. */
  public record Handle(CanopyClientProtocol calls, Closeable closer) implements Closeable {
    @Override
    public void close() throws IOException {
      closer.close();
    }
  }

  public static Handle create(Configuration conf, URI uri) throws IOException {
    if (!HAUtilClient.isLogicalUri(conf, uri)) {
      CanopyClientCalls direct = new CanopyClientCalls(conf, NetUtils.createSocketAddr(uri.getAuthority(),
          HdfsClientConfigKeys.DFS_NAMENODE_RPC_PORT_DEFAULT));
      return new Handle(unwrapping(direct), direct);
    }
    CanopyFailoverProxyProvider<CanopyClientProtocol> provider = new CanopyFailoverProxyProvider<>(conf, uri,
        CanopyClientProtocol.class, new Factory());
    DfsClientConf settings = new DfsClientConf(conf);
    CanopyClientProtocol calls = (CanopyClientProtocol) RetryProxy.create(CanopyClientProtocol.class, provider,
        RetryPolicies.failoverOnNetworkException(RetryPolicies.TRY_ONCE_THEN_FAIL,
            settings.getMaxFailoverAttempts(), settings.getMaxRetryAttempts(),
            settings.getFailoverSleepBaseMillis(), settings.getFailoverSleepMaxMillis()));
    return new Handle(unwrapping(calls), () -> RPC.stopProxy(calls));
  }

  /**
   * {@code calls} throwing a namenode's error as the class it threw (a FileNotFoundException stays one), as HDFS's
   * DFSClient unwraps above its retries: below them a plain IOException reads as a lost connection, and the failover
   * policy would retry a missing file's open on every namenode, sleeping between attempts.
   */
  private static CanopyClientProtocol unwrapping(CanopyClientProtocol calls) {
    return (CanopyClientProtocol) java.lang.reflect.Proxy.newProxyInstance(CanopyClientProtocol.class.getClassLoader(),
        new Class<?>[] {CanopyClientProtocol.class}, (proxy, method, args) -> {
          try {
            return method.invoke(calls, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof org.apache.hadoop.ipc.RemoteException remote) {
              throw remote.unwrapRemoteException();
            }
            throw e.getCause();
          }
        });
  }

  /** Creates one namenode's {@link CanopyClientCalls} for the failover provider. */
  private static final class Factory implements HAProxyFactory<CanopyClientProtocol> {
    @Override
    public CanopyClientProtocol createProxy(Configuration conf, InetSocketAddress address,
        Class<CanopyClientProtocol> xface, UserGroupInformation user, boolean withRetries,
        AtomicBoolean fallbackToSimpleAuth) throws IOException {
      return new CanopyClientCalls(conf, address, user);
    }

    @Override
    public CanopyClientProtocol createProxy(Configuration conf, InetSocketAddress address,
        Class<CanopyClientProtocol> xface, UserGroupInformation user, boolean withRetries) throws IOException {
      return new CanopyClientCalls(conf, address, user);
    }
  }
}

package io.canopy.client;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Function;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.Client.ConnectionId;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RpcInvocationHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy {@link CanopyFailoverProxyProvider} hands to Hadoop's {@code RetryInvocationHandler}: each invocation
 * asks the {@link NamenodeSelector} for a namenode and runs on that namenode's own RPC proxy, on the caller's
 * thread. A failure that says the namenode is unreachable marks it failed in the selector, then propagates unchanged
 * so the retry policy decides (fail over, retry or give up).
 *
 * <p>It is an {@link RpcInvocationHandler} on purpose: {@code RetryInvocationHandler} gives a call its call id and
 * retry count only when the proxy it holds is an RPC proxy; those thread-locals are then consumed by the one RPC the
 * namenode proxy makes below. That is what lets a namenode recognise a retried call in the shared retry cache, so
 * nothing here may make another RPC on the caller's thread before it (the list refresh runs elsewhere).
 */
final class NamenodeDispatcher<T> implements RpcInvocationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(NamenodeDispatcher.class);

  private final String nameservice;
  private final NamenodeSelector selector;
  private final Function<String, T> proxies;
  private final Runnable beforeCall;
  private volatile String lastAddress;

  /**
   * @param proxies the RPC proxy of a namenode, by host:port
   * @param beforeCall runs before every call, once the namenode is chosen; must not block nor make an RPC
   */
  NamenodeDispatcher(String nameservice, NamenodeSelector selector, Function<String, T> proxies,
      Runnable beforeCall) {
    this.nameservice = nameservice;
    this.selector = selector;
    this.proxies = proxies;
    this.beforeCall = beforeCall;
  }

  /** A proxy implementing {@code xface} whose every call goes through this dispatcher. */
  T newProxy(Class<T> xface) {
    return xface.cast(Proxy.newProxyInstance(xface.getClassLoader(), new Class<?>[] {xface}, this));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return objectMethod(proxy, method, args);
    }
    String address;
    T target;
    try {
      address = selector.choose();
      target = proxies.apply(address);
      beforeCall.run();
    } catch (RuntimeException | Error e) {
      // No RPC consumed the call id RetryInvocationHandler set for this call: clear it, or this thread's next call
      // would find one already set.
      Client.setCallIdAndRetryCountUnprotected(null, 0, null);
      throw e;
    }
    lastAddress = address;
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable failure = e.getCause();
      if (NamenodeSelector.meansNamenodeFailed(failure) && !Thread.currentThread().isInterrupted()) {
        selector.failed(address);
        LOG.debug("{} on namenode {} of {} failed: {}", method.getName(), address, nameservice, failure.toString());
      }
      throw failure;
    }
  }

  private Object objectMethod(Object proxy, Method method, Object[] args) {
    switch (method.getName()) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      default:
        return toString();
    }
  }

  /** The connection of the namenode the last call went to (for Hadoop code asking a proxy where it points). */
  @Override
  public ConnectionId getConnectionId() {
    String address = lastAddress;
    return RPC.getConnectionIdForProxy(proxies.apply(address != null ? address : selector.choose()));
  }

  /** The namenode proxies belong to the provider, which closes them. */
  @Override
  public void close() {
  }

  @Override
  public String toString() {
    return "Canopy " + selector.describe() + " of " + nameservice;
  }
}

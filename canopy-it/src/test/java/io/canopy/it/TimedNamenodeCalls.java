package io.canopy.it;

import java.io.Closeable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Queue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.NameNodeProxiesClient;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.ipc.RPC;

/**
 * Times every namenode call of a stock {@link DFSClient}: a {@link ClientProtocol} proxy around the real one records
 * each call's method, duration and failure. DFSClient's constructor that takes the namenode proxy installs it, and
 * everything the client does goes through it (its data streamer's addBlock and its lease renewer included).
 */
final class TimedNamenodeCalls implements InvocationHandler, Closeable {
  /** One namenode call as the client saw it; {@code failure} null when it returned. */
  record Call(String method, long startNanos, long durationNanos, Throwable failure) {
    long durationMs() {
      return durationNanos / 1_000_000;
    }

    @Override
    public String toString() {
      return method + " " + durationMs() + " ms" + (failure == null ? "" : " failed: " + failure.getClass()
          .getSimpleName() + " " + String.valueOf(failure.getMessage()).lines().findFirst().orElse(""));
    }
  }

  private final ClientProtocol target;
  private final Queue<Call> calls;

  private TimedNamenodeCalls(ClientProtocol target, Queue<Call> calls) {
    this.target = target;
    this.calls = calls;
  }

  /** A client of the namenode at {@code uri} whose namenode calls are added to {@code calls}. */
  static DFSClient client(URI uri, Configuration conf, Queue<Call> calls) throws java.io.IOException {
    ClientProtocol real = NameNodeProxiesClient.createProxyWithClientProtocol(conf, uri, null).getProxy();
    ClientProtocol timed = (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
        new Class<?>[] {ClientProtocol.class}, new TimedNamenodeCalls(real, calls));
    return new DFSClient(null, timed, conf, null); // the constructor takes no URI with a namenode proxy
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return method.invoke(target, args);
    }
    long start = System.nanoTime();
    try {
      Object result = method.invoke(target, args);
      calls.add(new Call(method.getName(), start, System.nanoTime() - start, null));
      return result;
    } catch (InvocationTargetException e) {
      calls.add(new Call(method.getName(), start, System.nanoTime() - start, e.getCause()));
      throw e.getCause();
    }
  }

  /** DFSClient stops its namenode proxy when it closes (RPC.stopProxy asks the handler): stop the real one. */
  @Override
  public void close() {
    RPC.stopProxy(target);
  }
}

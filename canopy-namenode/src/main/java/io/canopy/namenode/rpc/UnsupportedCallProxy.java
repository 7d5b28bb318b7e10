package io.canopy.namenode.rpc;

import io.canopy.namenode.fs.NotSupported;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

/**
 * Implements a Hadoop protocol interface with an object that has only some of its methods (same names and
 * parameter types): those are called, every other call fails with {@link UnsupportedOperationException} naming the
 * call, so clients get a clear answer instead of a half-implemented method: one line, without the namenode's stack
 * trace ({@link NotSupported}), e.g. {@code RemoteException: ClientProtocol.listCachePools is not supported by
 * Canopy} from {@code hdfs cacheadmin -listPools}.
 */
public final class UnsupportedCallProxy {
  private UnsupportedCallProxy() {
  }

  public static <T> T create(Class<T> protocol, Object implementation) {
    Map<Method, Method> targets = new HashMap<>();
    for (Method method : protocol.getMethods()) {
      try {
        targets.put(method, implementation.getClass().getMethod(method.getName(), method.getParameterTypes()));
      } catch (NoSuchMethodException notImplemented) {
        // left out of the map: answered as unsupported
      }
    }
    InvocationHandler handler = (proxy, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        return method.invoke(implementation, args);
      }
      Method target = targets.get(method);
      if (target == null) {
        throw NotSupported.oneLine(new UnsupportedOperationException(protocol.getSimpleName() + "."
            + method.getName() + " is not supported by Canopy"));
      }
      try {
        return target.invoke(implementation, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return protocol.cast(Proxy.newProxyInstance(protocol.getClassLoader(), new Class<?>[] {protocol}, handler));
  }
}

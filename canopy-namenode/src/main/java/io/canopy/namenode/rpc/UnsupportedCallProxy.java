package io.canopy.namenode.rpc;

import io.canopy.namenode.fs.NotSupported;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Implements a Hadoop protocol interface with objects that have only some of its methods (same names and parameter
 * types): each call goes to the first object that has the method, every other call fails with
 * {@link UnsupportedOperationException} naming the call, so callers get a clear answer instead of a half-implemented
 * method: one line, without the namenode's stack trace ({@link NotSupported}). Every failure passes
 * {@link DatabaseErrors} on its way out, so no database error reaches a caller with the database's words. Used for
 * the rarely called {@code NamenodeProtocol}; the client protocol, on every client's path, is implemented directly
 * ({@link ClientProtocolServer}), without this reflective dispatch.
 */
public final class UnsupportedCallProxy {
  private UnsupportedCallProxy() {
  }

  public static <T> T create(Class<T> protocol, Object implementation, Object... more) {
    Map<Method, Method> targets = new HashMap<>();
    Map<Method, Object> receivers = new HashMap<>();
    List<Object> implementations = new ArrayList<>();
    implementations.add(implementation);
    implementations.addAll(Arrays.asList(more));
    for (Method method : protocol.getMethods()) {
      for (Object candidate : implementations) {
        try {
          targets.put(method, candidate.getClass().getMethod(method.getName(), method.getParameterTypes()));
          receivers.put(method, candidate);
          break;
        } catch (NoSuchMethodException notImplemented) {
          // not this object's: try the next; a method no object has is answered as unsupported
        }
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
        return target.invoke(receivers.get(method), args);
      } catch (InvocationTargetException e) {
        throw DatabaseErrors.forClient(method.getName(), args, e.getCause());
      }
    };
    return protocol.cast(Proxy.newProxyInstance(protocol.getClassLoader(), new Class<?>[] {protocol}, handler));
  }
}

package io.canopy.namenode.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * The compiler checks that {@link ClientProtocolServer} is a whole {@link ClientProtocol}; this checks that each call
 * has one answer: served by {@link ClientProtocolServer} or refused by {@link UnsupportedClientCalls}, never both,
 * and that every call {@link ClusterAdminCalls} answers is one the server hands to it.
 */
class ClientProtocolCoverageTest {
  @Test
  void everyCallIsServedOrRefusedOnce() {
    Set<String> served = publicMethods(ClientProtocolServer.class);
    Set<String> refused = publicMethods(UnsupportedClientCalls.class);
    Set<String> both = new TreeSet<>(served);
    both.retainAll(refused);
    assertEquals(Set.of(), both, "calls both served and refused");
    Set<String> all = new TreeSet<>();
    for (Method method : ClientProtocol.class.getMethods()) {
      all.add(signature(method));
    }
    Set<String> answered = new TreeSet<>(served);
    answered.addAll(refused);
    assertEquals(all, answered);
  }

  @Test
  void everyAdminCallIsHandedOn() {
    Set<String> served = publicMethods(ClientProtocolServer.class);
    List<String> strays = new ArrayList<>();
    for (String call : publicMethods(ClusterAdminCalls.class)) {
      if (!served.contains(call)) {
        strays.add(call);
      }
    }
    assertEquals(List.of(), strays, "ClusterAdminCalls methods no client call reaches");
  }

  private static Set<String> publicMethods(Class<?> type) {
    Set<String> methods = new TreeSet<>();
    for (Method method : type.getDeclaredMethods()) {
      if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
          && !method.isBridge()) { // javac bridges the package-private superclass's methods
        methods.add(signature(method));
      }
    }
    return methods;
  }

  private static String signature(Method method) {
    StringBuilder text = new StringBuilder(method.getName()).append('(');
    for (Class<?> parameter : method.getParameterTypes()) {
      text.append(parameter.getName()).append(',');
    }
    return text.append(')').toString();
  }
}

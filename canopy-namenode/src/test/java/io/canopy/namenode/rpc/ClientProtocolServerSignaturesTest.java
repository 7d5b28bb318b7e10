package io.canopy.namenode.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * {@link UnsupportedCallProxy} matches calls by name and parameter types: a public method of
 * {@link ClientProtocolServer} (or {@link ClusterAdminCalls}) whose signature drifts from {@link ClientProtocol}'s would silently answer "not
 * supported". Every public method must be one of the protocol's.
 */
class ClientProtocolServerSignaturesTest {
  @Test
  void everyPublicMethodImplementsAClientProtocolCall() {
    assertNoStrays(ClientProtocolServer.class);
    assertNoStrays(ClusterAdminCalls.class);
  }

  private static void assertNoStrays(Class<?> implementation) {
    List<String> strays = new ArrayList<>();
    for (Method method : implementation.getDeclaredMethods()) {
      if (!Modifier.isPublic(method.getModifiers())) {
        continue;
      }
      try {
        ClientProtocol.class.getMethod(method.getName(), method.getParameterTypes());
      } catch (NoSuchMethodException notInTheProtocol) {
        strays.add(method.toGenericString());
      }
    }
    assertEquals(List.of(), strays, "public methods the RPC server would never call");
  }
}

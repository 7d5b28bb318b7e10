package io.canopy.metadata.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.StoreUnavailableException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.client.IgniteClientConnectionException;
import org.apache.ignite.lang.ErrorGroups;
import org.junit.jupiter.api.Test;

/** One node at a time: the first that answers, the next once its connection is gone, closed clients left behind. */
class HomeNodeClientTest {
  /** Nodes that refuse connections, nodes whose connection is gone, clients closed; by address. */
  private final Set<String> down = new HashSet<>();
  private final Set<String> lost = new HashSet<>();
  private final List<String> closed = new ArrayList<>();
  private final List<String> connects = new ArrayList<>();

  private IgniteClient connect(String address) {
    connects.add(address);
    if (down.contains(address)) {
      throw new IgniteClientConnectionException(ErrorGroups.Client.CONNECTION_ERR, "Connection refused: " + address, null);
    }
    return (IgniteClient) Proxy.newProxyInstance(IgniteClient.class.getClassLoader(),
        new Class<?>[] {IgniteClient.class}, (proxy, method, args) -> switch (method.getName()) {
          case "connections" -> lost.contains(address) ? List.of() : List.of(new Object());
          case "close" -> closed.add(address) ? null : null;
          case "toString" -> "client of " + address;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void staysOnItsHomeWhileItAnswersThenMovesToTheNextThatDoes() throws Exception {
    down.add("a:1");
    HomeNodeClient clients = new HomeNodeClient(List.of("a:1", "b:2", "c:3"), this::connect);
    assertEquals("b:2", clients.home(), "a refused: the next address");
    IgniteClient first = clients.get();
    assertSame(first, clients.get(), "kept while its connection lives");
    assertEquals(List.of("a:1", "b:2"), connects);

    lost.add("b:2");
    IgniteClient second = clients.get();
    assertEquals("c:3", clients.home());
    assertTrue(second != first);
    assertEquals(List.of("b:2"), closed, "the lost client is closed");

    lost.add("c:3");
    down.remove("a:1");
    clients.get();
    assertEquals("a:1", clients.home(), "round the addresses again");
    clients.close();
    assertEquals(List.of("b:2", "c:3", "a:1"), closed);
    assertThrows(StoreUnavailableException.class, clients::get);
  }

  @Test
  void noNodeAnsweringIsAnUnavailableStoreNamingTheAddresses() {
    down.addAll(List.of("a:1", "b:2"));
    StoreUnavailableException none = assertThrows(StoreUnavailableException.class,
        () -> new HomeNodeClient(List.of("a:1", "b:2"), this::connect));
    assertTrue(none.getMessage().contains("a:1") && none.getMessage().contains("b:2"), none.getMessage());
    assertEquals(List.of("a:1", "b:2"), connects, "each tried once");
  }
}

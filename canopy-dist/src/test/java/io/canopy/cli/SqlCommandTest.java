package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import java.lang.reflect.Proxy;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SqlCommandTest {
  @Test
  void anEngineWithoutAdminQueriesIsRefusedByName() {
    MetadataStore store = (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
        new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> switch (method.getName()) {
          case "capability" -> Optional.empty();
          case "describe" -> "keyvalue engine under test";
          default -> throw new AssertionError("unexpected call " + method.getName());
        });
    CliException refused = assertThrows(CliException.class, () -> SqlCommand.adminQueries(store));
    assertEquals(1, refused.exitCode());
    assertTrue(refused.getMessage().contains("keyvalue engine under test"), refused.getMessage());
    assertTrue(refused.getMessage().contains("canopy sql"), refused.getMessage());
  }
}

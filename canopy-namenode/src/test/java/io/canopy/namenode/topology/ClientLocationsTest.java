package io.canopy.namenode.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Declared client locations are kept by RPC client id, bounded, least recently used forgotten first. */
class ClientLocationsTest {
  private static final NetworkLocation AZ1 = NetworkLocation.parse("/az1/client");
  private static final NetworkLocation AZ2 = NetworkLocation.parse("/az2/client");

  @Test
  void aDeclarationIsFoundByItsClientIdAndReplacedByTheNextOne() {
    ClientLocations locations = new ClientLocations(10);
    assertNull(locations.declared(id(1)), "nothing declared yet");
    locations.declare(id(1), AZ1);
    assertEquals(AZ1, locations.declared(id(1).clone()), "by value, not by array identity");
    assertNull(locations.declared(id(2)));
    locations.declare(id(1), AZ2);
    assertEquals(AZ2, locations.declared(id(1)));
    locations.declare(null, AZ1);
    locations.declare(new byte[0], AZ1);
    assertNull(locations.declared(null), "a call without a client id has no declaration");
    assertEquals(1, locations.size());
  }

  @Test
  void beyondTheLimitTheLeastRecentlyUsedIsForgotten() {
    ClientLocations locations = new ClientLocations(2);
    locations.declare(id(1), AZ1);
    locations.declare(id(2), AZ2);
    locations.declared(id(1)); // used: client 2 is now the least recently used
    locations.declare(id(3), AZ1);
    assertEquals(2, locations.size());
    assertEquals(AZ1, locations.declared(id(1)));
    assertNull(locations.declared(id(2)));
    assertEquals(AZ1, locations.declared(id(3)));
    assertThrows(IllegalArgumentException.class, () -> new ClientLocations(0));
  }

  private static byte[] id(int n) {
    byte[] id = new byte[16];
    id[15] = (byte) n;
    return id;
  }
}

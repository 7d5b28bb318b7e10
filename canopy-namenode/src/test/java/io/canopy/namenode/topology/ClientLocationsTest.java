package io.canopy.namenode.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Declared client locations are kept by RPC client id, bounded: stale ones make room, active ones are kept. */
class ClientLocationsTest {
  private static final NetworkLocation AZ1 = NetworkLocation.parse("/az1/client");
  private static final NetworkLocation AZ2 = NetworkLocation.parse("/az2/client");

  private final AtomicLong clock = new AtomicLong(1_000_000);

  @Test
  void aDeclarationIsFoundByItsClientIdAndReplacedByTheNextOne() {
    ClientLocations locations = new ClientLocations(10, clock::get);
    assertNull(locations.declared(id(1)), "nothing declared yet");
    locations.declare(id(1), AZ1);
    assertEquals(AZ1, locations.declared(id(1).clone()), "by value, not by array identity");
    assertNull(locations.declared(id(2)));
    locations.declare(id(1), AZ2);
    assertEquals(AZ2, locations.declared(id(1)), "a new location replaces the old one at once");
    locations.declare(null, AZ1);
    locations.declare(new byte[0], AZ1);
    assertNull(locations.declared(null), "a call without a client id has no declaration");
    assertEquals(1, locations.size());
  }

  @Test
  void whenFullStaleDeclarationsMakeRoomAndActiveOnesStay() {
    ClientLocations locations = new ClientLocations(2, clock::get);
    locations.declare(id(1), AZ1);
    locations.declare(id(2), AZ2);
    locations.declare(id(3), AZ1);
    assertNull(locations.declared(id(3)), "full of active clients: the new one is placed by its address");
    clock.addAndGet(ClientLocations.FORGET_AFTER_MS / 2);
    locations.declare(id(1), AZ1); // client 1 renews, client 2 does not
    clock.addAndGet(ClientLocations.FORGET_AFTER_MS / 2 + 1);
    locations.declare(id(3), AZ2);
    assertEquals(AZ2, locations.declared(id(3)), "client 2 lapsed: room for client 3");
    assertEquals(AZ1, locations.declared(id(1)), "the renewed declaration stays");
    assertNull(locations.declared(id(2)));
    assertEquals(2, locations.size());
    assertThrows(IllegalArgumentException.class, () -> new ClientLocations(0, clock::get));
  }

  private static byte[] id(int n) {
    byte[] id = new byte[16];
    id[15] = (byte) n;
    return id;
  }
}

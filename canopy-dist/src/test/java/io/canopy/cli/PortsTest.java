package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortsTest {
  @Test
  void reusesAFreePreviousPort() throws Exception {
    int free;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      free = socket.getLocalPort();
    }
    Set<Integer> taken = new HashSet<>();
    assertEquals(free, Ports.reuseOrPick(free, taken));
    assertTrue(taken.contains(free));
  }

  @Test
  void picksAnotherPortWhenThePreviousIsBusy() throws Exception {
    try (ServerSocket busy = new ServerSocket()) {
      busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      assertFalse(Ports.isFree(busy.getLocalPort()));
      int picked = Ports.reuseOrPick(busy.getLocalPort(), new HashSet<>());
      assertNotEquals(busy.getLocalPort(), picked);
      assertTrue(Ports.isFree(picked));
    }
  }

  @Test
  void neverHandsOutAPortTwice() {
    Set<Integer> taken = new HashSet<>();
    int first = Ports.reuseOrPick(null, taken);
    int again = Ports.reuseOrPick(first, taken);
    assertNotEquals(first, again, "a port already in this plan must not be reused");
    for (int i = 0; i < 20; i++) {
      Ports.reuseOrPick(null, taken);
    }
    assertEquals(22, taken.size());
  }

  @Test
  void outOfRangePortsAreNotFree() {
    assertFalse(Ports.isFree(0));
    assertFalse(Ports.isFree(70000));
  }
}

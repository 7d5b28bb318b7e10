package io.canopy.metadata.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** InodeKey's hand-written equals and hashCode keep a record's contract: equal by every component. */
class InodeKeyTest {
  @Test
  void equalByValueWithConsistentHash() {
    InodeKey key = new InodeKey(3, 5, new String("name"));
    InodeKey same = new InodeKey(3, 5, "name");
    assertEquals(key, same);
    assertEquals(same, key);
    assertEquals(key.hashCode(), same.hashCode());
    assertNotEquals(key, new InodeKey(4, 5, "name"));
    assertNotEquals(key, new InodeKey(3, 6, "name"));
    assertNotEquals(key, new InodeKey(3, 5, "other"));
    assertNotEquals(key, new InodeKey(5, 3, "name"), "partition and parent are not interchangeable");
    assertNotEquals(key, null);
    assertNotEquals(key, "name");
  }

  @Test
  void refusesANullName() {
    assertThrows(NullPointerException.class, () -> new InodeKey(1, 1, null));
  }
}

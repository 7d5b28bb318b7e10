package io.canopy.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.canopy.metadata.LockMode;
import org.junit.jupiter.api.Test;

/** The listing pages a transaction read are keyed by ChildrenPage: hand-written equals and hashCode, by value. */
class ChildrenPageTest {
  @Test
  void equalByEveryComponentWithConsistentHash() {
    ChildrenPage page =
        new ChildrenPage(7, new String("b"), 100, LockMode.SHARED);
    ChildrenPage same = new ChildrenPage(7, "b", 100, LockMode.SHARED);
    assertEquals(page, same);
    assertEquals(page.hashCode(), same.hashCode());
    assertEquals(new ChildrenPage(7, null, 100, LockMode.SHARED),
        new ChildrenPage(7, null, 100, LockMode.SHARED), "the first page starts after nothing");
    assertNotEquals(page, new ChildrenPage(8, "b", 100, LockMode.SHARED));
    assertNotEquals(page, new ChildrenPage(7, "c", 100, LockMode.SHARED));
    assertNotEquals(page, new ChildrenPage(7, null, 100, LockMode.SHARED));
    assertNotEquals(page, new ChildrenPage(7, "b", 101, LockMode.SHARED));
    assertNotEquals(page, new ChildrenPage(7, "b", 100, LockMode.EXCLUSIVE));
  }
}

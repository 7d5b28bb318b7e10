package io.canopy.namenode.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.metadata.entity.Inode;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A page's count of what follows it serves the next page of the same listing, and only while nothing changed. */
class ListingCursorsTest {
  private static Inode directory(long children, long modificationTime) {
    return Inode.builder().id(20_001).partitionId(16_385).parentId(16_385).name("dir").directory(true)
        .permission((short) 0755).owner("alice").group("staff").modificationTime(modificationTime)
        .childrenCount(children).build();
  }

  @Test
  void theNextPageOfAnUnchangedDirectoryKnowsItsCount() {
    ListingCursors cursors = new ListingCursors();
    cursors.remember("/dir", "c09", directory(25, 1_000), 15);
    assertEquals(OptionalLong.of(15), cursors.remainingAfter("/dir", "c09", directory(25, 1_000)));
    assertEquals(OptionalLong.empty(), cursors.remainingAfter("/dir", "c09", directory(25, 1_000)), "used once");
    assertEquals(OptionalLong.empty(), cursors.remainingAfter("/dir", "c19", directory(25, 1_000)), "another page");
  }

  @Test
  void aChangedDirectoryIsCountedAgain() {
    ListingCursors cursors = new ListingCursors();
    cursors.remember("/dir", "c09", directory(25, 1_000), 15);
    assertEquals(OptionalLong.empty(), cursors.remainingAfter("/dir", "c09", directory(26, 1_000)), "a child more");
    cursors.remember("/dir", "c09", directory(25, 1_000), 15);
    assertEquals(OptionalLong.empty(), cursors.remainingAfter("/dir", "c09", directory(25, 1_001)),
        "a child replaced: same count, later modification time");
  }

  @Test
  void onlyTheMostRecentListingsAreRemembered() {
    ListingCursors cursors = new ListingCursors();
    for (int i = 0; i <= ListingCursors.MAX_CURSORS; i++) {
      cursors.remember("/dir" + i, "last", directory(25, 1_000), i);
    }
    assertEquals(OptionalLong.empty(), cursors.remainingAfter("/dir0", "last", directory(25, 1_000)), "forgotten");
    int newest = ListingCursors.MAX_CURSORS;
    assertEquals(OptionalLong.of(newest), cursors.remainingAfter("/dir" + newest, "last", directory(25, 1_000)));
  }
}

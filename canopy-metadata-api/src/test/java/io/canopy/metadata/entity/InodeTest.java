package io.canopy.metadata.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Inode's builder sets each component by its name, and the copy methods change only what they say. */
class InodeTest {
  /** Every component set, each to a value no other component has. */
  private static final Inode SAMPLE = new Inode(1L, 2L, 3L, "name", true, (short) 4, "owner", "group", 5L, 6L, 7L,
      (short) 8, 9L, (byte) 10, true, "client", "machine", "target", 11L, true, true, 12L);

  @Test
  void builderDefaultsAreZeroFalseAndNull() {
    assertEquals(new Inode(0, 0, 0, "n", false, (short) 0, "o", "g", 0, 0, 0, (short) 0, 0, (byte) 0, false, null,
        null, null, 0, false, false, 0), Inode.builder().name("n").owner("o").group("g").build());
  }

  @Test
  void eachSetterSetsItsOwnComponentOnly() throws Exception {
    Inode base = Inode.builder().name("n").owner("o").group("g").directory(true).build();
    for (RecordComponent component : Inode.class.getRecordComponents()) {
      Object value = otherThan(component.getAccessor().invoke(base), component.getType());
      Inode.Builder builder = base.toBuilder();
      Inode.Builder.class.getMethod(component.getName(), component.getType()).invoke(builder, value);
      assertOnlyChanged(base, builder.build(), Map.of(component.getName(), value));
    }
  }

  @Test
  void toBuilderKeepsEveryComponent() {
    assertEquals(SAMPLE, SAMPLE.toBuilder().build());
  }

  @Test
  void copyMethodsChangeOnlyTheirComponents() throws Exception {
    assertOnlyChanged(SAMPLE, SAMPLE.withQuota(false), Map.of("hasQuota", false));
    assertOnlyChanged(SAMPLE, SAMPLE.withSpreadChildren(false), Map.of("spreadsChildren", false));
    assertOnlyChanged(SAMPLE, SAMPLE.withLocation(20L, 30L, "moved"),
        Map.of("partitionId", 20L, "parentId", 30L, "name", "moved"));
    assertOnlyChanged(SAMPLE, SAMPLE.withPermission((short) 040), Map.of("permission", (short) 040));
    assertOnlyChanged(SAMPLE, SAMPLE.withOwnership("o2", "g2"), Map.of("owner", "o2", "group", "g2"));
    assertOnlyChanged(SAMPLE, SAMPLE.withTimes(50L, 60L), Map.of("modificationTime", 50L, "accessTime", 60L));
    assertOnlyChanged(SAMPLE, SAMPLE.withStoragePolicy((byte) 100), Map.of("storagePolicy", (byte) 100));
    assertOnlyChanged(SAMPLE, SAMPLE.withReplication((short) 80), Map.of("replication", (short) 80));
    assertOnlyChanged(SAMPLE, SAMPLE.withSize(70L), Map.of("size", 70L));
    assertOnlyChanged(SAMPLE, SAMPLE.withChildrenCount(110L), Map.of("childrenCount", 110L));
    assertOnlyChanged(SAMPLE, SAMPLE.reassigned("c2"), Map.of("clientName", "c2"));
    Inode closedFile = SAMPLE.toBuilder().directory(false).hasQuota(false).underConstruction(false)
        .clientName(null).clientMachine(null).build();
    assertOnlyChanged(closedFile, closedFile.reopened("c2", "m2"),
        Map.of("underConstruction", true, "clientName", "c2", "clientMachine", "m2"));
    // reopened has always cleared the quota flag, which only a directory can have
    assertOnlyChanged(SAMPLE, SAMPLE.reopened("c2", "m2"),
        Map.of("clientName", "c2", "clientMachine", "m2", "hasQuota", false));
    Map<String, Object> closed = new HashMap<>();
    closed.put("size", 70L);
    closed.put("modificationTime", 50L);
    closed.put("underConstruction", false);
    closed.put("clientName", null);
    closed.put("clientMachine", null);
    assertOnlyChanged(SAMPLE, SAMPLE.closed(70L, 50L), closed);
  }

  @Test
  void buildChecksTheRecordsInvariants() {
    assertThrows(NullPointerException.class, () -> Inode.builder().owner("o").group("g").build());
    assertThrows(IllegalArgumentException.class,
        () -> Inode.builder().name("f").owner("o").group("g").hasQuota(true).build());
    assertThrows(IllegalArgumentException.class,
        () -> Inode.builder().name("d").owner("o").group("g").directory(true).childrenCount(-1).build());
  }

  /** {@code after} equals {@code before} but in the components of {@code changed}, which hold the given values. */
  private static void assertOnlyChanged(Inode before, Inode after, Map<String, Object> changed) throws Exception {
    for (RecordComponent component : Inode.class.getRecordComponents()) {
      Object expected = changed.containsKey(component.getName()) ? changed.get(component.getName())
          : component.getAccessor().invoke(before);
      assertEquals(expected, component.getAccessor().invoke(after), component.getName());
    }
  }

  private static Object otherThan(Object value, Class<?> type) {
    if (type == long.class) {
      return (Long) value + 7;
    } else if (type == short.class) {
      return (short) ((Short) value + 7);
    } else if (type == byte.class) {
      return (byte) ((Byte) value + 7);
    } else if (type == boolean.class) {
      return !(Boolean) value;
    } else if (type == String.class) {
      return value + "x";
    }
    throw new AssertionError("no other value for " + type);
  }
}

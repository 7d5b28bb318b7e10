package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NamespaceShapeTest {
  @Test
  void defaultsGive255DirectoriesAnd4080Files() {
    NamespaceShape shape = NamespaceShape.defaults();
    assertEquals(7, shape.depth());
    assertEquals(16, shape.filesPerDirectory());
    assertEquals(2, shape.subdirectoriesPerDirectory());
    assertEquals(100, shape.maxFileBytes());
    assertEquals(255, shape.directoryCount());
    assertEquals(4080, shape.fileCount());
    assertEquals(128, shape.directoriesOnLevel(7));
  }

  @Test
  void countsForOtherShapes() {
    assertEquals(1, NamespaceShape.defaults().withDepth(0).directoryCount());
    assertEquals(7, NamespaceShape.defaults().withDepth(2).directoryCount());
    assertEquals(4, NamespaceShape.defaults().withDepth(3).withSubdirectoriesPerDirectory(1).directoryCount());
    assertEquals(1 + 3 + 9, NamespaceShape.defaults().withDepth(2).withSubdirectoriesPerDirectory(3)
        .directoryCount());
    assertEquals(0, NamespaceShape.defaults().withFilesPerDirectory(0).fileCount());
  }

  @Test
  void rejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> NamespaceShape.defaults().withDepth(-1));
    assertThrows(IllegalArgumentException.class, () -> NamespaceShape.defaults().withDepth(40));
    assertThrows(IllegalArgumentException.class, () -> NamespaceShape.defaults().withMaxFileBytes(-5));
  }
}

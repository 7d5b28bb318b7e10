package io.canopy.namenode.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.InvalidPathException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class FsPathTest {
  @Test
  void parsesComponents() {
    FsPath path = FsPath.parse("/a/bb/c");
    assertEquals(List.of("a", "bb", "c"), path.components());
    assertEquals("/a/bb/c", path.toString());
    assertEquals("c", path.name());
    assertEquals(FsPath.parse("/a/bb"), path.parent());
    assertEquals(3, path.depth());
  }

  @Test
  void rootAndTrailingSlash() {
    assertTrue(FsPath.parse("/").isRoot());
    assertEquals(FsPath.parse("/a/b"), FsPath.parse("/a/b/"));
    assertEquals(FsPath.ROOT, FsPath.parse("/a").parent());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a/b", "/a//b", "/a/./b", "/a/../b", "/a/b:c", "//a"})
  void rejectsWhatHdfsRejects(String bad) {
    InvalidPathException error = assertThrows(InvalidPathException.class, () -> FsPath.parse(bad));
    assertTrue(error.getMessage().contains(bad), error.getMessage());
  }

  @Test
  void aClientPathKeepsHdfsLengthAndDepthLimits() throws IOException {
    assertEquals(1000, FsPath.parse("mkdirs", "/d".repeat(1000)).depth());
    assertEquals(1000, FsPath.parse("mkdirs", "/d".repeat(1000) + "/").depth(), "a trailing slash is no level");
    String longest = "/" + "x".repeat(7999);
    assertEquals(longest, FsPath.parse("create", longest).toString());
    String limits = ": Pathname too long.  Limit 8000 characters, 1000 levels.";
    assertEquals("mkdirs" + limits,
        assertThrows(IOException.class, () -> FsPath.parse("mkdirs", "/d".repeat(1001))).getMessage());
    assertEquals("getFileInfo" + limits,
        assertThrows(IOException.class, () -> FsPath.parse("getFileInfo", longest + "x")).getMessage());
    // the limits come first, as in HDFS: an overlong path is refused for its length, whatever else is wrong
    assertThrows(IOException.class, () -> FsPath.parse("delete", "relative" + "/d".repeat(1001)));
  }

  @Test
  void refusesWhatTheDatabaseCannotStoreShowingItEscaped() {
    InvalidPathException nul = assertThrows(InvalidPathException.class, () -> FsPath.parse("/a/b\0c"));
    assertEquals("Invalid path /a/b\\u0000c. (path component \"b\\u0000c\" holds a NUL character (U+0000), "
        + "which Canopy cannot store)", nul.getMessage());
    InvalidPathException surrogate = assertThrows(InvalidPathException.class, () -> FsPath.parse("/a/\uD800x"));
    assertTrue(surrogate.getMessage().contains("unpaired UTF-16 surrogate (U+D800)"), surrogate.getMessage());
    assertEquals(List.of("\uD83D\uDE00"), FsPath.parse("/\uD83D\uDE00").components(), "a pair is a character");
  }

  @Test
  void lockOrderPutsAncestorsFirstAndComparesNamesAsUtf8Bytes() {
    List<FsPath> paths = new ArrayList<>(List.of(FsPath.parse("/b"), FsPath.parse("/a/z"), FsPath.parse("/a"),
        FsPath.parse("/\uFF21"), FsPath.parse("/\uD83D\uDE00"), FsPath.ROOT));
    Collections.shuffle(paths, new java.util.Random(7));
    Collections.sort(paths);
    // U+FF21 (3 UTF-8 bytes, EF BC A1) sorts before U+1F600 (F0 9F 98 80) in bytes but after it in UTF-16
    assertEquals(List.of(FsPath.ROOT, FsPath.parse("/a"), FsPath.parse("/a/z"), FsPath.parse("/b"),
        FsPath.parse("/\uFF21"), FsPath.parse("/\uD83D\uDE00")), paths);
  }

  @Test
  void ancestry() {
    assertTrue(FsPath.parse("/a").isAncestorOrSelf(FsPath.parse("/a/b")));
    assertTrue(FsPath.parse("/a").isAncestorOrSelf(FsPath.parse("/a")));
    assertFalse(FsPath.parse("/a").isAncestorOrSelf(FsPath.parse("/ab")));
    assertTrue(FsPath.ROOT.isAncestorOrSelf(FsPath.parse("/x")));
  }

  @Test
  void ancestorsAreThePathsOfLeadingComponents() {
    FsPath path = FsPath.parse("/a/b/c");
    assertEquals(FsPath.ROOT, path.ancestor(0));
    assertEquals(FsPath.parse("/a/b"), path.ancestor(2));
    assertEquals("/a/b", path.ancestor(2).toString());
    assertEquals(path, path.ancestor(3));
    assertEquals(path.parent(), path.ancestor(2));
    assertThrows(IllegalArgumentException.class, () -> path.ancestor(4));
  }

  @Test
  void ancestorsAreMadeOncePerPath() {
    FsPath path = FsPath.parse("/a/\u00e9t\u00e9/c/d");
    for (int depth = 1; depth < path.depth(); depth++) {
      FsPath ancestor = path.ancestor(depth);
      assertSame(ancestor, path.ancestor(depth), "lock planning asks for each prefix several times, depth " + depth);
      FsPath parsed = FsPath.parse(ancestor.toString());
      assertEquals(parsed, ancestor);
      assertEquals(parsed.hashCode(), ancestor.hashCode());
      assertEquals(parsed.components(), ancestor.components());
    }
    assertEquals("/a/\u00e9t\u00e9", path.ancestor(2).toString());
    assertSame(path.parent(), path.ancestor(3));
  }

  @Test
  void nameOrderIsUtf8ByteOrder() {
    String[] names = {"", "a", "ab", "b", "A", "\u00e9", "\u07ff", "\u0800", "\uD7FF", "\uE000", "\uFF21",
        "\uFFFF", "\uD83D\uDE00", "\uD83D\uDE01", "\uD800\uDC00", "a\uD83D\uDE00", "a\uFF21", "a\uFF21b"};
    for (String left : names) {
      for (String right : names) {
        int bytes = java.util.Arrays.compareUnsigned(left.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            right.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(Integer.signum(bytes), Integer.signum(NameOrder.compare(left, right)),
            "'" + left + "' vs '" + right + "'");
      }
    }
  }
}

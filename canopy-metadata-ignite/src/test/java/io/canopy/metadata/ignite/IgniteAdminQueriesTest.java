package io.canopy.metadata.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What decides whether an operator's statement is a query, and how values are shown (the engine is not needed). */
class IgniteAdminQueriesTest {
  @Test
  void theFirstWordSkipsWhitespaceCommentsAndParentheses() {
    assertEquals("SELECT", IgniteAdminQueries.firstWord("select 1"));
    assertEquals("SELECT", IgniteAdminQueries.firstWord("  \n\t( (SELECT 1))"));
    assertEquals("WITH", IgniteAdminQueries.firstWord("-- a comment\nWITH t AS (SELECT 1) SELECT * FROM t"));
    assertEquals("DELETE", IgniteAdminQueries.firstWord("/* SELECT */ DELETE FROM inodes"));
    assertEquals("DELETE", IgniteAdminQueries.firstWord("--\n/**/delete from inodes"));
    assertEquals("", IgniteAdminQueries.firstWord("/* unterminated SELECT"));
    assertEquals("", IgniteAdminQueries.firstWord("-- SELECT"));
    assertEquals("", IgniteAdminQueries.firstWord("  "));
    assertEquals("", IgniteAdminQueries.firstWord("; SELECT 1"));
    // a line comment ends at a carriage return too, as in Ignite's parser
    assertEquals("DELETE", IgniteAdminQueries.firstWord("--\rDELETE FROM t WHERE id IN (\nSELECT id FROM t)"));
    assertEquals("DELETE", IgniteAdminQueries.firstWord("-- x\r\nDELETE FROM t"));
    assertEquals("", IgniteAdminQueries.firstWord("// SELECT\nDELETE FROM t"));
  }

  @Test
  void binaryValuesShowAsTextWhenValidUtf8ElseAsHex() {
    assertEquals("f\u00e9\uD83D\uDE00", IgniteAdminQueries.text("f\u00e9\uD83D\uDE00".getBytes(StandardCharsets.UTF_8)));
    assertEquals("", IgniteAdminQueries.text(new byte[0]));
    assertEquals("\\xff00", IgniteAdminQueries.text(new byte[] {(byte) 0xff, 0}));
    assertEquals("42", IgniteAdminQueries.text(42L));
    assertEquals("true", IgniteAdminQueries.text(true));
    assertNull(IgniteAdminQueries.text(null));
  }
}

package io.canopy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamenodeListTest {
  private static final List<NamenodeList.Entry> THREE = List.of(
      new NamenodeList.Entry(1, "127.0.0.1:9001", 0, true),
      new NamenodeList.Entry(4, "nn-b.example.org:9002", 2, false),
      new NamenodeList.Entry(17, "10.0.0.3:8020", 3, false));

  @Test
  void formatThenParseGivesTheSameEntriesInOrder() {
    String message = NamenodeList.format(THREE);
    assertEquals("1\t127.0.0.1:9001\t0\tleader\n4\tnn-b.example.org:9002\t2\tmember\n17\t10.0.0.3:8020\t3\tmember\n",
        message);
    assertEquals(THREE, NamenodeList.parse(message));
  }

  @Test
  void anEmptyListIsAnEmptyMessage() {
    assertEquals("", NamenodeList.format(List.of()));
    assertEquals(List.of(), NamenodeList.parse(""));
  }

  @Test
  void malformedMessagesAreRejectedNamingTheLineAndTheExpectedFormat() {
    assertMalformed("1\t127.0.0.1:9001\t0\n", "line 1", "4 tab-separated fields, found 3");
    assertMalformed("1\t127.0.0.1:9001\t0\tleader\nx\t127.0.0.1:9002\t0\tmember\n", "line 2", "numeric id");
    assertMalformed("1\t127.0.0.1:9001\t0\tboss\n", "line 1", "role 'leader' or 'member', found 'boss'");
    assertMalformed("1\t127.0.0.1\t0\tmember\n", "line 1", "no valid host:port");
    assertMalformed("1\t127.0.0.1:70000\t0\tmember\n", "line 1", "no valid host:port");
    assertMalformed("0\t127.0.0.1:9001\t0\tmember\n", "line 1", "id must be positive");
    assertMalformed("1\t127.0.0.1:9001\t-1\tmember\n", "line 1", "negative location domain");
    assertMalformed("1\t127.0.0.1:9001\t0\tmember", "not ended by a newline", "1\\t127.0.0.1:9001");
    assertMalformed("1\t127.0.0.1:9001\t0\tmember\n\n", "line 2", "found 1");
    assertMalformed("1\ta:1\t0\tmember\n1\tb:2\t0\tmember\n", "namenode 1 is listed twice", "");
    assertMalformed("1\ta:1\t0\tleader\n2\tb:2\t0\tleader\n", "2 namenodes are marked leader", "");
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> NamenodeList.parse(null));
    assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
  }

  @Test
  void formatRefusesWhatParseWouldRefuse() {
    assertThrows(IllegalArgumentException.class, () -> NamenodeList.format(List.of(
        new NamenodeList.Entry(1, "a:1", 0, true), new NamenodeList.Entry(1, "b:1", 0, false))));
    assertThrows(IllegalArgumentException.class, () -> new NamenodeList.Entry(2, "a\tb:1", 0, false));
    assertThrows(IllegalArgumentException.class, () -> new NamenodeList.Entry(2, "", 0, false));
  }

  private static void assertMalformed(String message, String where, String what) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NamenodeList.parse(message),
        () -> "accepted " + message);
    assertTrue(e.getMessage().startsWith("malformed namenode list"), e.getMessage());
    assertTrue(e.getMessage().contains(where), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }
}

package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.metadata.QueryResult;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void alignsColumnsAndShowsNull() {
    QueryResult result = new QueryResult(List.of("id", "name"),
        List.of(List.of("1", "/"), Arrays.asList("12345", null), List.of("7", "line\nbreak")), false);
    assertEquals(""
        + " id    | name\n"
        + "-------+-------------\n"
        + " 1     | /\n"
        + " 12345 | NULL\n"
        + " 7     | line\\nbreak\n"
        + "(3 rows)\n", TextTable.render(result));
  }

  @Test
  void singularAndTruncatedAndEmpty() {
    assertEquals(" n\n---\n 1\n(1 row)\n",
        TextTable.render(new QueryResult(List.of("n"), List.of(List.of("1")), false)));
    assertEquals(" n\n---\n 1\n(1 row; more rows exist, raise --max-rows to see them)\n",
        TextTable.render(new QueryResult(List.of("n"), List.of(List.of("1")), true)));
    assertEquals(" count\n-------\n(0 rows)\n", TextTable.render(new QueryResult(List.of("count"), List.of(), false)));
  }
}

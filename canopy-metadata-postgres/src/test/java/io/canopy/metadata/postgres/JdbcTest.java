package io.canopy.metadata.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The placeholder count that lays a pipeline's parameters out statement after statement. */
class JdbcTest {
  @Test
  void placeholdersAreCountedAnywhereInTheStatement() {
    assertEquals(0, Jdbc.countParameters("COMMIT"));
    assertEquals(1, Jdbc.countParameters("?"));
    assertEquals(3, Jdbc.countParameters("SELECT 1 FROM t WHERE a = ? AND b = ? AND c = ?"));
    assertEquals(2, Jdbc.countParameters("??"));
    assertEquals(3, Jdbc.countParameters("SELECT x FROM unnest(?::bigint[], ?::bigint[], ?::text[])"));
  }
}

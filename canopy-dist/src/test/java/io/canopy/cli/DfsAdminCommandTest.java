package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DfsAdminCommandTest {
  @Test
  void reconfiguringADatanodeOfTheSharedJvmIsRefusedWithTheReason() {
    CliException refused = assertThrows(CliException.class, () -> DfsAdminCommand.refuseDatanodeReconfiguration(
        List.of("-reconfig", "datanode", "127.0.0.1:50020", "start")));
    assertEquals(2, refused.exitCode());
    assertTrue(refused.getMessage().contains("share one JVM") && refused.getMessage().contains("design/014"),
        refused.getMessage());
    assertThrows(CliException.class, () -> DfsAdminCommand.refuseDatanodeReconfiguration(
        List.of("-reconfig", "DATANODE", "127.0.0.1:50020", "status")));
  }

  @Test
  void everyOtherCommandGoesThrough() {
    assertDoesNotThrow(() -> DfsAdminCommand.refuseDatanodeReconfiguration(
        List.of("-reconfig", "namenode", "127.0.0.1:8020", "start")));
    assertDoesNotThrow(() -> DfsAdminCommand.refuseDatanodeReconfiguration(List.of("-report")));
    assertDoesNotThrow(() -> DfsAdminCommand.refuseDatanodeReconfiguration(List.of("-reconfig")));
  }
}

package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** canopy namenode and canopy admin without a running cluster: parsing, errors, and the helpers they share. */
class NamenodeCommandsTest {
  @TempDir
  Path dir;

  @Test
  void adminWithoutACommandIsAUsageError() {
    CliTestSupport.Run run = CliTestSupport.run("admin");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("Missing admin command: namenodes or kill-namenode"), run.err());
  }

  @Test
  void adminCommandsNameTheMissingCluster() {
    for (String[] command : new String[][] {{"admin", "namenodes", "--dir", dir.toString()},
        {"admin", "--dir", dir.toString(), "namenodes"}, {"admin", "kill-namenode", "--dir", dir.toString(), "3"},
        {"namenode", "--dir", dir.toString()}}) {
      CliTestSupport.Run run = CliTestSupport.run(command);
      assertEquals(1, run.exitCode(), run.err());
      String name = command[0].equals("admin") ? "canopy admin " + (command[1].equals("--dir") ? command[3]
          : command[1]) : "canopy namenode";
      assertTrue(run.err().startsWith(name + ": No Canopy cluster in " + dir), run.err());
      assertFalse(run.err().contains("\tat "), "no stack trace for a user error");
    }
  }

  @Test
  void killNamenodeNeedsANumericId() {
    CliTestSupport.Run run = CliTestSupport.run("admin", "kill-namenode", "--dir", dir.toString(), "leader");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("leader"), run.err());
    CliTestSupport.Run negative = CliTestSupport.run("admin", "kill-namenode", "--dir", dir.toString(), "0");
    assertEquals(2, negative.exitCode());
    assertTrue(negative.err().contains("positive"), negative.err());
  }

  @Test
  void descriptorsAreMatchedToRolesByLoopbackPort() {
    ClusterProperties cluster = new ClusterProperties(2, 1, Map.of("db", 5000, "namenode-1", 5001, "namenode-2",
        5002, "datanode-1", 5011), Map.of());
    assertEquals(Optional.of(Role.namenode(1)), NamenodeGroup.roleAt(cluster, "127.0.0.1:5001"));
    assertEquals(Optional.of(Role.namenode(2)), NamenodeGroup.roleAt(cluster, "localhost:5002"));
    assertEquals(Optional.empty(), NamenodeGroup.roleAt(cluster, "localhost:5011"), "a datanode's port");
    assertEquals(Optional.empty(), NamenodeGroup.roleAt(cluster, "10.0.0.7:5001"), "another host");
    assertEquals(Optional.empty(), NamenodeGroup.roleAt(cluster, "garbage"));
  }

  @Test
  void registrationsAreReadFromTheNamenodeLog() {
    String log = "2026-01-01 INFO [IPC Server handler 3] datanode.DatanodeProtocolServer: Registered datanode "
        + "0a2fc0e8-fe5d at 127.0.0.1:45045\n";
    assertTrue(NamenodeCommand.registered(log, 45045));
    assertFalse(NamenodeCommand.registered(log, 4504));
    assertFalse(NamenodeCommand.registered(log, 54419));
  }
}

package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.postgres.Postmaster;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * status and down against stand-in processes: bash processes that carry a role's markers on their command line and
 * wait, so no cluster is needed.
 */
class StatusAndDownTest {
  @TempDir
  Path dir;

  private final List<Process> standIns = new ArrayList<>();

  @AfterEach
  void killStandIns() {
    standIns.forEach(Process::destroyForcibly);
  }

  private ClusterLayout clusterWithTwoRoles() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    new ClusterProperties(1, 0, Map.of("db", 41000, "namenode-1", 41001, "namenode-1.service", 41101,
        "namenode-1.http", 41201), Map.of())
        .store(layout.propertiesFile());
    return layout;
  }

  /** Starts a process that looks like {@code role} of {@code layout} and records its pid file. */
  private Process standIn(ClusterLayout layout, Role role) throws Exception {
    // A long argument like a real class path: the JDK reports no arguments for command lines over 4096 bytes.
    Process process = new ProcessBuilder("bash", "-c", "read -t 60 <> <(:); true", "x".repeat(6000),
        Daemons.DIR_MARKER + layout.root(), Daemons.ROLE_MARKER + role.name()).start();
    standIns.add(process);
    new Daemons(layout).writePid(role, process.pid());
    return process;
  }

  @Test
  void exitCodeRule() {
    assertEquals(0, StatusCommand.exitCode(4, 4));
    assertEquals(1, StatusCommand.exitCode(1, 4));
    assertEquals(3, StatusCommand.exitCode(0, 4));
  }

  @Test
  void noClusterIsNoneRunning() {
    CliTestSupport.Run run = CliTestSupport.run("status", "--dir", dir.toString());
    assertEquals(3, run.exitCode());
    assertTrue(run.out().contains("No Canopy cluster in " + dir), run.out());
  }

  @Test
  void reportsEachRoleAndTheRightExitCode() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    CliTestSupport.Run none = CliTestSupport.run("status", "--dir", dir.toString());
    assertEquals(3, none.exitCode(), none.out());
    assertTrue(none.out().contains("fs.defaultFS=hdfs://127.0.0.1:41001"), none.out());
    assertTrue(none.out().matches("(?s).*db +stopped +pid - +port 41000.*"), none.out());
    assertTrue(none.out().matches("(?s).*namenode-1 +stopped +pid - +port 41001 service 41101 "
        + "http http://127.0.0.1:41201\n.*"), none.out());

    Process database = standIn(layout, Role.DATABASE);
    CliTestSupport.Run some = CliTestSupport.run("status", "--dir", dir.toString());
    assertEquals(1, some.exitCode(), some.out());
    assertTrue(some.out().matches("(?s).*db +running +pid " + database.pid() + " +port 41000.*"), some.out());
    assertTrue(some.out().matches("(?s).*namenode-1 +stopped.*"), some.out());

    standIn(layout, Role.namenode(1));
    assertEquals(0, CliTestSupport.run("status", "--dir", dir.toString()).exitCode());
  }

  @Test
  void aRecycledPidIsNotMistakenForARole() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    // This JVM's pid is alive but carries no markers.
    new Daemons(layout).writePid(Role.DATABASE, ProcessHandle.current().pid());
    assertTrue(new Daemons(layout).running(Role.DATABASE).isEmpty());
    assertEquals(3, CliTestSupport.run("status", "--dir", dir.toString()).exitCode());
  }

  @Test
  void downStopsEveryRoleAndRemovesPidFiles() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    Process database = standIn(layout, Role.DATABASE);
    Process namenode = standIn(layout, Role.namenode(1));
    CliTestSupport.Run run = CliTestSupport.run("down", "--dir", dir.toString());
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertFalse(database.isAlive());
    assertFalse(namenode.isAlive());
    assertTrue(run.out().indexOf("stopped namenode-1") < run.out().indexOf("stopped db"),
        "namenodes stop before the database:\n" + run.out());
    assertFalse(Files.exists(layout.pidFile(Role.DATABASE)));
    assertFalse(Files.exists(layout.pidFile(Role.namenode(1))));
    assertEquals(3, CliTestSupport.run("status", "--dir", dir.toString()).exitCode());
  }

  @Test
  void stalePidFilesAreCleanedByDown() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    Files.createDirectories(layout.runDir());
    Files.writeString(layout.pidFile(Role.datanode(4)), "999999999\n");
    CliTestSupport.Run run = CliTestSupport.run("down", "--dir", dir.toString());
    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("Nothing was running"), run.out());
    assertFalse(Files.exists(layout.pidFile(Role.datanode(4))));
  }

  @Test
  void upRefusesWhilePartOfTheClusterRuns() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    standIn(layout, Role.DATABASE);
    CliTestSupport.Run run = CliTestSupport.run("up", "--dir", dir.toString());
    assertEquals(1, run.exitCode(), run.out());
    assertTrue(run.err().contains("Part of the cluster in " + dir + " is running"), run.err());
    assertTrue(run.err().contains("canopy down --dir " + dir), run.err());
  }

  @Test
  void upOnARunningClusterPrintsItsAddress() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    standIn(layout, Role.DATABASE);
    standIn(layout, Role.namenode(1));
    CliTestSupport.Run run = CliTestSupport.run("up", "--dir", dir.toString());
    assertEquals(0, run.exitCode(), run.err());
    assertTrue(run.out().endsWith("fs.defaultFS=hdfs://127.0.0.1:41001\n"), run.out());
    CliTestSupport.Run other = CliTestSupport.run("up", "--dir", dir.toString(), "--datanodes", "2");
    assertEquals(1, other.exitCode());
    assertTrue(other.err().contains("already running with 1 namenode, 0 datanodes"), other.err());
  }

  @Test
  void aLauncherLockMeansTheDatabaseIsNotAnOrphan() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    Path database = layout.databaseDir();
    Files.createDirectories(database);
    assertFalse(Postmaster.launcherHoldsLock(database), "no lock file");
    Path lockFile = database.resolve(Postmaster.LAUNCHER_LOCK_FILE);
    Files.createFile(lockFile);
    assertFalse(Postmaster.launcherHoldsLock(database), "nobody holds it");
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      assertTrue(Postmaster.launcherHoldsLock(database));
    }
    assertTrue(Postmaster.orphan(database).isEmpty(), "no postmaster.pid: no server at all");
  }

  @Test
  void formatRefusesWhileNamenodesRun() throws Exception {
    ClusterLayout layout = clusterWithTwoRoles();
    ClusterConfigs.writeAll(layout, ClusterProperties.load(layout.propertiesFile()).orElseThrow());
    Process namenode = standIn(layout, Role.namenode(1));
    CliTestSupport.Run run = CliTestSupport.run("format", "--dir", dir.toString(), "--force");
    assertEquals(1, run.exitCode());
    assertTrue(run.err().contains("Cannot format while these run: namenode-1 (pid " + namenode.pid() + ")"), run.err());
  }
}

package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DaemonLauncherTest {
  @Test
  void commandCarriesMarkersHeapAndMainClass() {
    ClusterLayout layout = new ClusterLayout(Path.of("/tmp/cluster"));
    DaemonLauncher launcher = new DaemonLauncher(layout, "/jdk/bin/java", "a.jar:b.jar", "/usr/bin/setsid");
    List<String> command = launcher.command(Role.namenode(2), List.of("/tmp/cluster/etc/namenode-2"));
    assertEquals("/usr/bin/setsid", command.get(0));
    assertEquals("/jdk/bin/java", command.get(1));
    assertTrue(command.contains("-Xmx3g"));
    assertTrue(command.contains("-Dcanopy.dir=/tmp/cluster"));
    assertTrue(command.contains("-Dcanopy.role=namenode-2"));
    int classPath = command.indexOf("-cp");
    assertEquals("a.jar:b.jar", command.get(classPath + 1));
    assertEquals("io.canopy.namenode.NameNodeMain", command.get(classPath + 2));
    assertEquals("/tmp/cluster/etc/namenode-2", command.get(command.size() - 1));
  }

  @Test
  void aLaunchingJvmAddsOptionsToOneKindOfProcess() {
    DaemonLauncher launcher = new DaemonLauncher(new ClusterLayout(Path.of("/c")), "java", "cp", null);
    String property = DaemonLauncher.jvmOptionsProperty(Role.Kind.NAMENODE);
    assertEquals("canopy.daemon.jvm-options.namenode", property);
    System.setProperty(property, " -XX:StartFlightRecording=name=x  -Dcanopy.test=1 ");
    try {
      List<String> namenode = launcher.command(Role.namenode(1), List.of("/c/etc/namenode-1"));
      int first = namenode.indexOf("-XX:StartFlightRecording=name=x");
      assertTrue(first > 0 && namenode.get(first + 1).equals("-Dcanopy.test=1"), namenode.toString());
      assertTrue(first < namenode.indexOf("-cp"), "JVM options come before the class path: " + namenode);
      List<String> datanode = launcher.command(Role.datanode(1), List.of("/c/etc/datanode-1", "/d"));
      assertFalse(datanode.contains("-Dcanopy.test=1"), "only the named kind: " + datanode);
    } finally {
      System.clearProperty(property);
    }
    assertFalse(launcher.command(Role.namenode(1), List.of()).contains("-Dcanopy.test=1"));
  }

  @Test
  void datanodesFindTheirConfigurationOnTheClassPath() {
    ClusterLayout layout = new ClusterLayout(Path.of("/tmp/cluster"));
    DaemonLauncher launcher = new DaemonLauncher(layout, "/jdk/bin/java", "a.jar:b.jar", null);
    List<String> command = launcher.command(Role.datanode(3), List.of("/tmp/cluster/etc/datanode-3", "/d"));
    // DataNode.refreshNamenodes() reads a new Configuration: hdfs-site.xml from the class path.
    assertEquals("/tmp/cluster/etc/datanode-3:a.jar:b.jar", command.get(command.indexOf("-cp") + 1));
  }

  @Test
  void withoutSetsidJavaRunsDirectly() {
    DaemonLauncher launcher = new DaemonLauncher(new ClusterLayout(Path.of("/c")), "java", "cp", null);
    List<String> command = launcher.command(Role.DATABASE, List.of("/c/db", "5432"));
    assertEquals("java", command.get(0));
    assertTrue(command.contains("-Xmx128m"));
    assertTrue(command.contains("io.canopy.metadata.postgres.EmbeddedPostgresMain"));
  }

  @Test
  void aDatabaseNodeRunsIgnitesServerFromItsOwnClassPathWithItsOpenings() {
    DaemonLauncher launcher = new DaemonLauncher(new ClusterLayout(Path.of("/c")), "java", "hadoop.jar", null);
    String previous = System.setProperty(DaemonLauncher.IGNITE_NODE_CLASSPATH_PROPERTY, "/ignite/lib/*");
    try {
      List<String> command = launcher.command(Role.databaseNode(2), List.of("db-2", "/c/etc/db-2/ignite-node.conf",
          "/c/ignite/db-2"));
      assertEquals("/ignite/lib/*", command.get(command.indexOf("-cp") + 1), "never Hadoop's class path");
      assertTrue(command.contains("io.canopy.ignite.node.IgniteNodeMain"), command.toString());
      assertTrue(command.contains("--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED"), command.toString());
      assertTrue(command.contains(Daemons.ROLE_MARKER + "db-2"), command.toString());
      assertTrue(command.contains("-Xmx1g"), command.toString());
    } finally {
      if (previous == null) {
        System.clearProperty(DaemonLauncher.IGNITE_NODE_CLASSPATH_PROPERTY);
      } else {
        System.setProperty(DaemonLauncher.IGNITE_NODE_CLASSPATH_PROPERTY, previous);
      }
    }
  }

  @Test
  void oneProcessRunsEveryDatanodeAndCarriesEachOnesMarker() {
    ClusterLayout layout = new ClusterLayout(Path.of("/tmp/cluster"));
    DaemonLauncher launcher = new DaemonLauncher(layout, "/jdk/bin/java", "a.jar:b.jar", null);
    List<Role> datanodes = List.of(Role.datanode(1), Role.datanode(2), Role.datanode(3));
    List<String> command = launcher.command(datanodes, List.of("/e/1", "/d/1", "/e/2", "/d/2", "/e/3", "/d/3"));
    for (Role datanode : datanodes) {
      assertTrue(command.contains("-Dcanopy.role=" + datanode.name()), command.toString());
    }
    assertTrue(command.contains("-Xmx640m"), "384 MB for the first datanode, 128 MB for each other: " + command);
    assertFalse(command.contains("-Xmx384m"), command.toString());
    // The first datanode's site files answer refreshNamenodes for all: they name the same namenodes.
    assertEquals("/tmp/cluster/etc/datanode-1:a.jar:b.jar", command.get(command.indexOf("-cp") + 1));
    assertEquals(List.of("io.canopy.datanode.DataNodeMain", "/e/1", "/d/1", "/e/2", "/d/2", "/e/3", "/d/3"),
        command.subList(command.indexOf("-cp") + 2, command.size()));
    assertEquals(layout.logFile(Role.datanode(1)), layout.logFile(Role.datanode(3)), "one process, one log");
  }

  @Test
  void aProcessRunsRolesOfOneKindWithABoundedHeap() {
    DaemonLauncher launcher = new DaemonLauncher(new ClusterLayout(Path.of("/c")), "java", "cp", null);
    assertThrows(IllegalArgumentException.class,
        () -> launcher.command(List.of(Role.namenode(1), Role.datanode(1)), List.of()));
    assertThrows(IllegalArgumentException.class, () -> launcher.command(List.of(), List.of()));
    assertEquals("-Xmx384m", Role.Kind.DATANODE.heapOption(1));
    assertEquals("-Xmx4g", Role.Kind.DATANODE.heapOption(UpCommand.MAX_DATANODES), "at most 4 GB however many");
    assertEquals("-Xmx3g", Role.Kind.NAMENODE.heapOption(1));
  }
}

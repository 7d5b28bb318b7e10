package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}

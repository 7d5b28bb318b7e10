package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

class CommandLineTest {
  @TempDir
  Path dir;

  private static <T> T parse(Class<T> type, String... args) {
    ParseResult result = CanopyCli.newCommandLine().parseArgs(args);
    return type.cast(result.subcommand().commandSpec().userObject());
  }

  @ParameterizedTest
  @ValueSource(strings = {"up", "down", "status", "dfs", "sql", "format", "namenode", "admin namenodes",
      "admin kill-namenode"})
  void everyCommandHasHelp(String command) {
    List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
    args.add("--help");
    CliTestSupport.Run run = CliTestSupport.run(args.toArray(new String[0]));
    assertEquals(0, run.exitCode(), run.err());
    assertTrue(run.out().startsWith("Usage: canopy " + command), run.out());
    assertTrue(run.out().contains("--dir=DIR"), run.out());
    assertTrue(run.out().contains("Exit status:"), run.out());
  }

  @Test
  void topLevelHelpListsEveryCommand() {
    CliTestSupport.Run run = CliTestSupport.run("--help");
    assertEquals(0, run.exitCode());
    for (String command : List.of("up", "down", "status", "dfs", "sql", "format", "namenode", "admin")) {
      assertTrue(run.out().contains("\n  " + command + " "), command + " missing from\n" + run.out());
    }
  }

  @Test
  void noCommandIsAUsageError() {
    CliTestSupport.Run run = CliTestSupport.run();
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("Missing command"), run.err());
  }

  @Test
  void unknownOptionIsAUsageError() {
    CliTestSupport.Run run = CliTestSupport.run("status", "--bogus");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--bogus"), run.err());
  }

  @Test
  void upParsesCountsAndRepeatedSettings() {
    UpCommand up = parse(UpCommand.class, "up", "--dir", "/tmp/c", "--namenodes", "2", "--datanodes=5",
        "-D", "dfs.blocksize=1048576", "-Ddfs.heartbeat.interval=1");
    assertEquals(2, up.namenodes);
    assertEquals(5, up.datanodes);
    assertEquals("/tmp/c", up.dirOption.dir);
    assertEquals(Map.of("dfs.blocksize", "1048576", "dfs.heartbeat.interval", "1"), up.overrides);
    assertEquals(120, up.timeoutSeconds);
  }

  @Test
  void upCountsDefaultToNullSoThePreviousOnesAreReused() {
    UpCommand up = parse(UpCommand.class, "up");
    assertNull(up.namenodes);
    assertNull(up.datanodes);
    assertTrue(up.overrides.isEmpty());
  }

  @Test
  void upRejectsBadCountsAndReservedSettingsBeforeStartingAnything() {
    Path cluster = dir.resolve("c");
    CliTestSupport.Run noNamenode = CliTestSupport.run("up", "--dir", cluster.toString(), "--namenodes", "0");
    assertEquals(2, noNamenode.exitCode());
    assertTrue(noNamenode.err().contains("--namenodes must be within [1, 16], got 0"), noNamenode.err());
    CliTestSupport.Run reserved = CliTestSupport.run("up", "--dir", cluster.toString(), "-D", "fs.defaultFS=x");
    assertEquals(2, reserved.exitCode());
    assertTrue(reserved.err().contains("-D fs.defaultFS cannot be overridden"), reserved.err());
    assertFalse(cluster.toFile().exists(), "nothing may be created for a refused command");
  }

  @Test
  void upRefusesABadEngineAndDatabaseNodesWithoutIgnite() {
    Path cluster = dir.resolve("c");
    CliTestSupport.Run badEngine = CliTestSupport.run("up", "--dir", cluster.toString(), "--engine", "mysql");
    assertEquals(2, badEngine.exitCode());
    assertTrue(badEngine.err().contains("--engine must be postgres or ignite, got 'mysql'"), badEngine.err());
    CliTestSupport.Run tooMany = CliTestSupport.run("up", "--dir", cluster.toString(), "--engine", "ignite",
        "--db-nodes", "10");
    assertEquals(2, tooMany.exitCode());
    assertTrue(tooMany.err().contains("--db-nodes must be within [1, 9], got 10"), tooMany.err());
    CliTestSupport.Run onPostgres = CliTestSupport.run("up", "--dir", cluster.toString(), "--engine", "postgres",
        "--db-nodes", "3");
    assertEquals(2, onPostgres.exitCode());
    assertTrue(onPostgres.err().contains("--db-nodes is for --engine ignite"), onPostgres.err());
    assertFalse(cluster.toFile().exists(), "nothing may be created for a refused command");
    // whether --db-nodes alone is right depends on the engine the directory's cluster was made with: read under its lock
    CliTestSupport.Run noEngine = CliTestSupport.run("up", "--dir", cluster.toString(), "--db-nodes", "3");
    assertEquals(2, noEngine.exitCode());
    assertTrue(noEngine.err().contains("add --engine ignite"), noEngine.err());
    assertFalse(new ClusterLayout(cluster).isCluster(), "no cluster planned");
  }

  @Test
  void upKeepsTheEngineAClusterDirectoryWasMadeWith() throws Exception {
    Path cluster = dir.resolve("kept");
    new ClusterProperties(ClusterProperties.IGNITE, 3, 1, 0, 0, Map.of(), Map.of())
        .store(new ClusterLayout(cluster).propertiesFile());
    CliTestSupport.Run other = CliTestSupport.run("up", "--dir", cluster.toString(), "--engine", "postgres");
    assertEquals(2, other.exitCode());
    assertTrue(other.err().contains("keeps its metadata on ignite; --engine postgres needs a new cluster directory"),
        other.err());
  }

  @Test
  void dfsPassesShellArgumentsThroughUnchanged() {
    assertEquals(List.of("-ls", "-R", "/"), parse(DfsCommand.class, "dfs", "--dir", "/c", "-ls", "-R", "/")
        .shellArguments);
    assertEquals(List.of("-D", "dfs.replication=1", "-put", "a b", "/x"),
        parse(DfsCommand.class, "dfs", "-D", "dfs.replication=1", "-put", "a b", "/x").shellArguments);
    assertEquals(List.of("-help"), parse(DfsCommand.class, "dfs", "-help").shellArguments);
    assertEquals(List.of("-du", "-s", "-h", "/", "--dir", "x"),
        parse(DfsCommand.class, "dfs", "-du", "-s", "-h", "/", "--dir", "x").shellArguments);
    DfsCommand withDir = parse(DfsCommand.class, "dfs", "--dir", "/c", "-cat", "/f");
    assertEquals("/c", withDir.dirOption.dir);
  }

  @Test
  void dfsWithoutClusterSaysWhatToDo() {
    CliTestSupport.Run run = CliTestSupport.run("dfs", "--dir", dir.toString(), "-ls", "/");
    assertEquals(1, run.exitCode());
    assertTrue(run.err().startsWith("canopy dfs: No Canopy cluster in " + dir), run.err());
    assertTrue(run.err().contains("canopy up --dir " + dir), run.err());
    assertFalse(run.err().contains("\tat "), "no stack trace for a user error");
  }

  @Test
  void sqlParsesQueryAndMaxRows() {
    SqlCommand sql = parse(SqlCommand.class, "sql", "--max-rows", "5", "SELECT name FROM inodes");
    assertEquals(5, sql.maxRows);
    assertEquals("SELECT name FROM inodes", sql.query);
    assertEquals(1000, parse(SqlCommand.class, "sql", "SELECT 1").maxRows);
  }

  @Test
  void sqlRefusesBadMaxRowsAndMissingCluster() {
    CliTestSupport.Run badRows = CliTestSupport.run("sql", "--dir", dir.toString(), "--max-rows", "0", "SELECT 1");
    assertEquals(2, badRows.exitCode());
    assertTrue(badRows.err().contains("--max-rows must be within"), badRows.err());
    CliTestSupport.Run noCluster = CliTestSupport.run("sql", "--dir", dir.toString(), "SELECT 1");
    assertEquals(1, noCluster.exitCode());
    assertTrue(noCluster.err().contains("No Canopy cluster in " + dir), noCluster.err());
  }

  @Test
  void formatParsesForceAndRefusesWithoutCluster() {
    assertTrue(parse(FormatCommand.class, "format", "--force").force);
    CliTestSupport.Run run = CliTestSupport.run("format", "--dir", dir.toString());
    assertEquals(1, run.exitCode());
    assertTrue(run.err().contains("No Canopy cluster in " + dir), run.err());
  }

  @Test
  void downWithNothingThereSucceeds() {
    CliTestSupport.Run missing = CliTestSupport.run("down", "--dir", dir.resolve("absent").toString());
    assertEquals(0, missing.exitCode());
    assertTrue(missing.out().contains("Nothing to stop"), missing.out());
    CliTestSupport.Run empty = CliTestSupport.run("down", "--dir", dir.toString());
    assertEquals(0, empty.exitCode());
    assertTrue(empty.out().contains("Nothing was running in " + dir), empty.out());
  }

  @Test
  void versionIsPrinted() {
    CliTestSupport.Run run = CliTestSupport.run("--version");
    assertEquals(0, run.exitCode());
    assertTrue(run.out().startsWith("canopy "), run.out());
  }

  @Test
  void dirComesFromOptionThenEnvironmentThenDefault() {
    assertEquals(Path.of("/a").toAbsolutePath(), ClusterLayout.resolve("/a", "/b").root());
    assertEquals(Path.of("/b").toAbsolutePath(), ClusterLayout.resolve(null, "/b").root());
    assertEquals(Path.of("canopy-cluster").toAbsolutePath(), ClusterLayout.resolve(null, null).root());
    assertEquals(Path.of("canopy-cluster").toAbsolutePath(), ClusterLayout.resolve("", " ").root());
  }

  @Test
  void outputGoesToTheConfiguredWritersEvenAfterSystemOutChanged() {
    CommandLine commandLine = CanopyCli.newCommandLine();
    java.io.StringWriter out = new java.io.StringWriter();
    commandLine.setOut(new java.io.PrintWriter(out, true));
    java.io.PrintStream original = System.out;
    java.io.ByteArrayOutputStream elsewhere = new java.io.ByteArrayOutputStream();
    try {
      System.setOut(new java.io.PrintStream(elsewhere, true));
      assertEquals(3, commandLine.execute("status", "--dir", dir.toString()));
    } finally {
      System.setOut(original);
    }
    assertTrue(out.toString().contains("No Canopy cluster in " + dir), out + " / " + elsewhere);
  }

  @Test
  void helpSubcommandWorks() {
    CommandLine commandLine = CanopyCli.newCommandLine();
    assertEquals(0, commandLine.execute("help", "up"));
  }
}

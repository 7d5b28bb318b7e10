package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.postgres.Postmaster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many namenodes through the command line, as a user would drive them: {@code up --namenodes 3}, {@code admin
 * namenodes}, {@code admin kill-namenode} of the leader while {@code dfs} keeps working and a new leader takes over,
 * {@code namenode} adding a fourth that every datanode registers with, {@code namenode --restart} bringing the killed
 * one back, and {@code down} leaving no process behind.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class CliNamenodesTest {
  private static final Pattern MEMBER = Pattern.compile("^(\\d+)  (\\S+)  .*$");
  private static final Pattern PID = Pattern.compile(" pid (\\d+) ");
  private static final long FAILOVER_BUDGET_MS = 30_000;

  @TempDir
  static Path work;

  private static CliRunner canopy() {
    return new CliRunner(work.resolve("cluster"));
  }

  @AfterAll
  static void down() {
    if (Files.exists(canopy().clusterDir())) {
      canopy().run("down");
    }
  }

  /** One line of {@code canopy admin namenodes}. */
  private record Member(long id, String address, boolean leader, String line) {
  }

  private static List<Member> namenodes() {
    CliRunner.Run run = canopy().succeed("admin", "namenodes");
    List<Member> members = new ArrayList<>();
    for (String line : run.commandOut().strip().lines().toList()) {
      Matcher matcher = MEMBER.matcher(line);
      assertTrue(matcher.matches(), "not a namenode line: '" + line + "' in\n" + run.commandOut());
      members.add(new Member(Long.parseLong(matcher.group(1)), matcher.group(2), line.endsWith("  leader"), line));
    }
    return members;
  }

  private static Member onlyLeader(List<Member> members) {
    List<Member> leaders = members.stream().filter(Member::leader).toList();
    assertEquals(1, leaders.size(), "exactly one leader in " + members);
    return leaders.get(0);
  }

  /** Pids of the processes {@code canopy status} shows running. */
  private static Set<Long> runningPids() {
    Set<Long> pids = new TreeSet<>();
    Matcher matcher = PID.matcher(canopy().run("status").commandOut());
    while (matcher.find()) {
      pids.add(Long.parseLong(matcher.group(1)));
    }
    return pids;
  }

  @Test
  void namenodesComeGoAndJoinThroughTheCommandLine() throws Exception {
    CliRunner.Run up = canopy().succeed("up", "--namenodes", "3", "--datanodes", "2", "-D",
        "dfs.heartbeat.interval=1", "-D", "canopy.namenode.election.round-ms=500");
    assertTrue(up.commandOut().strip().endsWith("fs.defaultFS=hdfs://canopy"), up.commandOut());
    assertTrue(up.commandOut().contains("namenodes (nameservice hdfs://canopy): 127.0.0.1:"), up.commandOut());
    CliRunner.Run status = canopy().succeed("status");
    for (int i = 1; i <= 3; i++) {
      assertTrue(status.commandOut().matches("(?s).*\nnamenode-" + i + " +running .*"), status.commandOut());
    }
    Set<Long> pids = new TreeSet<>(runningPids());

    List<Member> group = namenodes();
    assertEquals(3, group.size(), group.toString());
    Member leader = onlyLeader(group);

    byte[] before = TestFiles.randomBytes(300_000, 7);
    Path beforeFile = work.resolve("before.bin");
    Files.write(beforeFile, before);
    canopy().succeed("dfs", "-put", beforeFile.toString(), "/before.bin");

    CliRunner.Run kill = canopy().succeed("admin", "kill-namenode", Long.toString(leader.id()));
    assertTrue(kill.commandOut().contains("killed namenode " + leader.id()), kill.commandOut());
    assertTrue(kill.commandOut().contains("it was the leader"), kill.commandOut());
    CliRunner.Run again = canopy().run("admin", "kill-namenode", Long.toString(leader.id()));
    assertEquals(1, again.exitCode(), "killing it twice is an error");
    // Not running, or (on a quick machine) already evicted.
    assertTrue(again.err().contains("is not running") || again.err().contains("No namenode with id"), again.err());

    // Clients fail over at once: the file system keeps working while the group has not noticed yet.
    byte[] after = TestFiles.randomBytes(200_000, 8);
    Path afterFile = work.resolve("after.bin");
    Files.write(afterFile, after);
    canopy().succeed("dfs", "-put", afterFile.toString(), "/after.bin");
    Path copy = work.resolve("before-copy.bin");
    canopy().succeed("dfs", "-get", "/before.bin", copy.toString());
    assertArrayEquals(before, Files.readAllBytes(copy));
    String listing = canopy().succeed("dfs", "-ls", "/").out();
    assertTrue(listing.contains("/before.bin") && listing.contains("/after.bin"), listing);

    // Within a bounded time the others see it dead, elect a new leader, and the new leader evicts it.
    long deadline = System.currentTimeMillis() + FAILOVER_BUDGET_MS;
    List<Member> survivors = namenodes();
    while (survivors.size() != 2 || survivors.stream().noneMatch(Member::leader)) {
      assertTrue(System.currentTimeMillis() < deadline, "no new leader and eviction after " + FAILOVER_BUDGET_MS
          + " ms: " + survivors);
      Thread.sleep(500);
      survivors = namenodes();
    }
    Member newLeader = onlyLeader(survivors);
    assertNotEquals(leader.id(), newLeader.id());
    assertTrue(survivors.stream().noneMatch(member -> member.id() == leader.id()), survivors.toString());

    // A fourth namenode: every running datanode is told and registers with it.
    CliRunner.Run added = canopy().succeed("namenode");
    assertTrue(added.commandOut().contains("datanode-1 registered with namenode-4"), added.commandOut());
    assertTrue(added.commandOut().contains("datanode-2 registered with namenode-4"), added.commandOut());
    assertTrue(added.commandOut().strip().endsWith("fs.defaultFS=hdfs://canopy"), added.commandOut());
    List<Member> grown = namenodes();
    assertEquals(3, grown.size(), grown.toString());
    onlyLeader(grown);
    Member fourth = grown.stream().filter(member -> member.line().contains("namenode-4 pid")).findFirst()
        .orElseThrow(() -> new AssertionError("no namenode-4 in " + namenodes()));
    String fourthLog = Files.readString(canopy().clusterDir().resolve("logs/namenode-4.log"));
    assertEquals(2, Pattern.compile("Registered datanode \\S+ at 127\\.0\\.0\\.1:\\d+").matcher(fourthLog)
        .results().count(), "both datanodes register with namenode-4:\n" + fourthLog);
    String datanodeConf = Files.readString(canopy().clusterDir().resolve("etc/datanode-1/hdfs-site.xml"));
    assertTrue(datanodeConf.contains("<name>dfs.namenode.rpc-address.canopy.nn4</name>"), datanodeConf);
    String port = fourth.address().substring(fourth.address().lastIndexOf(':') + 1);
    String direct = canopy().succeed("dfs", "-ls", "hdfs://127.0.0.1:" + port + "/").out();
    assertTrue(direct.contains("/after.bin"), "namenode-4 serves the namespace:\n" + direct);
    pids.addAll(runningPids());

    // The killed namenode comes back on its own port, with a new id.
    CliRunner.Run restarted = canopy().succeed("namenode", "--restart");
    assertTrue(restarted.commandOut().contains("restarted ["), restarted.commandOut());
    List<Member> whole = namenodes();
    assertEquals(4, whole.size(), whole.toString());
    onlyLeader(whole);
    assertEquals(0, canopy().run("status").exitCode(), "everything runs again");
    pids.addAll(runningPids());

    canopy().succeed("down");
    assertEquals(3, canopy().run("status").exitCode(), "nothing may run after down");
    for (long pid : pids) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still runs");
    }
    assertTrue(Postmaster.running(canopy().clusterDir().resolve("db")).isEmpty(), "PostgreSQL still runs");
  }
}

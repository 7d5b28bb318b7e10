package io.canopy.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.it.ApacheHdfsCluster;
import io.canopy.it.MiniCanopyCluster;
import io.canopy.it.UserClients;
import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The permission oracle: Apache HDFS 3.5.0 decides. The same tree ({@link OracleTree}: 0700, 0711, 0770, 0000,
 * sticky and ACL'd directories, a quota directory, files of other users) is built on HDFS and on Canopy, then every
 * {@code ClientProtocol} call ({@link OraclePathCalls} on every path of the tree, {@link OracleClusterCalls} once) is
 * made on both as each caller: a user of another group, a member of the owner's group, the owner, a member of the
 * superuser group (calls without a path) and the superuser, through the raw namenode proxy. For each case the outcome must be the same: allowed, refused with the same
 * AccessControlException first line (the path HDFS names included), or failed for another reason with the same
 * exception class. A call Canopy does not serve may answer "not supported" (listed with its reason in the
 * catalogue); {@link #KNOWN_DIFFERENCES} lists the few other differences and why.
 */
@Timeout(300)
class PermissionOracleTest {
  /**
   * Differences that are not about permissions, by call, with the reason (also in docs/compatibility.md). Each must
   * still differ somewhere, so the list cannot outlive them.
   */
  static final Map<String, String> KNOWN_DIFFERENCES = Map.of(
      "getHAServiceState", "every Canopy namenode serves reads and writes and answers ACTIVE; a MiniDFSCluster "
          + "namenode without HA refuses the call");

  @TempDir
  static Path directory;
  static ApacheHdfsCluster hdfs;
  static MiniCanopyCluster canopy;
  static Side hdfsSide;
  static Side canopySide;

  /** One file system with its callers, most restricted first. */
  record Side(String name, DistributedFileSystem superuser, UserClients users, List<Caller> callers)
      implements AutoCloseable {
    @Override
    public void close() throws IOException {
      users.close();
      superuser.close();
    }
  }

  /** {@code onPaths}: also makes the calls on paths (a superuser by group behaves there as the superuser). */
  record Caller(String user, DistributedFileSystem fs, boolean onPaths) {
  }

  @BeforeAll
  static void startClusters() throws IOException {
    FileSystem.enableSymlinks(); // HDFS's createSymlink switch (JVM-wide; SymlinkTest sets it too)
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setInt("dfs.replication", 1);
    conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true);
    hdfs = ApacheHdfsCluster.start(directory.resolve("hdfs"), conf, 1);
    hdfsSide = side("hdfs", hdfs.newFileSystem(), new UserClients(hdfs.uri(), hdfs.conf()));
    canopy = MiniCanopyCluster.start(directory.resolve("canopy"), conf, 1, 1);
    canopySide = side("canopy", canopy.fileSystem(), new UserClients(canopy.uri(), canopy.conf()));
  }

  private static Side side(String name, DistributedFileSystem superuser, UserClients users) throws IOException {
    List<Caller> callers = List.of(
        new Caller("bob", users.as("bob", "bob"), true),
        new Caller("carol", users.as("carol", OracleTree.GROUP), true),
        new Caller(OracleTree.OWNER, users.as(OracleTree.OWNER, OracleTree.GROUP), true),
        new Caller("admin", users.as("admin", "supergroup"), false),
        new Caller(superuserName(), superuser, true));
    return new Side(name, superuser, users, callers);
  }

  private static String superuserName() throws IOException {
    return UserGroupInformation.getCurrentUser().getShortUserName();
  }

  @AfterAll
  static void stopClusters() throws IOException {
    for (Side side : new Side[] {canopySide, hdfsSide}) {
      if (side != null) {
        side.close();
      }
    }
    if (canopy != null) {
      canopy.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void everyCallAllowsAndRefusesAsApacheHdfs() throws IOException {
    Findings findings = new Findings();
    for (Map.Entry<String, List<OracleCall>> round : rounds().entrySet()) {
      String root = "/oracle/" + round.getKey();
      for (Side side : new Side[] {hdfsSide, canopySide}) {
        OracleTree.build(side.superuser().getClient().getNamenode(), side.superuser().getClient().getClientName(),
            superuserName(), root);
      }
      for (OracleCall call : round.getValue()) {
        renewOpenFiles(); // the holder writes nothing: keep it within the soft limit, or appends would take over
        for (OracleTree.Entry entry : call.onPaths() ? OracleTree.entries() : Collections.<OracleTree.Entry>
            singletonList(null)) {
          for (int caller = 0; caller < hdfsSide.callers().size(); caller++) {
            if (!call.onPaths() || hdfsSide.callers().get(caller).onPaths()) {
              findings.record(call, root, entry, hdfsSide.callers().get(caller).user(),
                  outcome(call, invocation(hdfsSide, caller, root, entry)),
                  outcome(call, invocation(canopySide, caller, root, entry)));
            }
          }
        }
      }
    }
    assertTrue(findings.mismatches.isEmpty(), () -> findings.mismatches.size() + " cases differ from Apache HDFS:\n"
        + String.join("\n", findings.mismatches));
    assertEquals(KNOWN_DIFFERENCES.keySet(), findings.differing, "every known difference still differs");
    assertTrue(findings.count("denied") > 500 && findings.count("allowed") > 500,
        "the tree must exercise both allowed and refused cases: " + findings.outcomes);
  }

  /** What the cases found: those that differ, the known differences seen, HDFS's outcomes by kind. */
  private static final class Findings {
    final List<String> mismatches = new ArrayList<>();
    final Set<String> differing = new HashSet<>();
    final Map<String, Integer> outcomes = new LinkedHashMap<>();

    void record(OracleCall call, String root, OracleTree.Entry entry, String user, Outcome expected,
        Outcome actual) {
      outcomes.merge(expected.compared().replaceAll(":.*", ""), 1, Integer::sum);
      boolean same = expected.compared().equals(actual.compared());
      if (!same && KNOWN_DIFFERENCES.containsKey(call.name())) {
        differing.add(call.name());
      } else if (!same && !(call.notServed() != null && actual.compared().equals(NOT_SERVED))) {
        mismatches.add(call.name() + " " + (entry == null ? "" : root + "/" + entry.name() + " ") + "as " + user
            + ": HDFS " + expected + " | Canopy " + actual);
      }
    }

    int count(String kind) {
      return outcomes.getOrDefault(kind, 0);
    }
  }

  /** The superuser's clients hold the tree's open files; their lease is renewed by nothing else. */
  private static void renewOpenFiles() throws IOException {
    for (Side side : new Side[] {hdfsSide, canopySide}) {
      side.superuser().getClient().getNamenode().renewLease(side.superuser().getClient().getClientName(), null);
    }
  }

  /** The calls by round, the shared round first (reads before writes, then the calls made once). */
  private static Map<String, List<OracleCall>> rounds() {
    List<OracleCall> all = new ArrayList<>(OraclePathCalls.reads());
    all.addAll(OracleClusterCalls.all(directory));
    all.addAll(OraclePathCalls.sharedWrites());
    all.addAll(OraclePathCalls.ownRounds());
    all.addAll(OraclePathCalls.writers());
    Map<String, List<OracleCall>> rounds = new LinkedHashMap<>();
    all.forEach(call -> rounds.computeIfAbsent(call.round(), round -> new ArrayList<>()).add(call));
    return rounds;
  }

  private static OracleCall.Invocation invocation(Side side, int caller, String root, OracleTree.Entry entry)
      throws IOException {
    DistributedFileSystem fs = side.callers().get(caller).fs();
    return new OracleCall.Invocation(fs, fs.getClient().getNamenode(), fs.getClient().getClientName(),
        side.callers().get(caller).user(), superuserName(), root, entry);
  }

  static final String NOT_SERVED = "not served";

  /**
   * What a case did: {@code compared} is "allowed", "denied: FIRST LINE", "failed: EXCEPTION CLASS" or (Canopy only)
   * {@link #NOT_SERVED}; {@code message} is a failure's first line, shown when the sides differ.
   */
  record Outcome(String compared, String message) {
    @Override
    public String toString() {
      return compared.startsWith("failed") ? compared + " (" + message + ")" : compared;
    }
  }

  static Outcome outcome(OracleCall call, OracleCall.Invocation invocation) {
    try {
      call.action().run(invocation);
      return new Outcome("allowed", "");
    } catch (RemoteException e) {
      return classify(e.getClassName(), e.getMessage());
    } catch (Exception e) {
      return classify(e.getClass().getName(), e.getMessage());
    }
  }

  private static Outcome classify(String className, String message) {
    String firstLine = message == null ? "" : message.split("\n", 2)[0].trim();
    if (firstLine.contains("Canopy")) {
      return new Outcome(NOT_SERVED, firstLine); // Canopy's refusals of calls it does not serve all name it
    }
    if (isAccessControl(className)) {
      return new Outcome("denied: " + firstLine, firstLine);
    }
    return new Outcome("failed: " + className.substring(className.lastIndexOf('.') + 1), firstLine);
  }

  private static boolean isAccessControl(String className) {
    try {
      return AccessControlException.class.isAssignableFrom(Class.forName(className));
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}

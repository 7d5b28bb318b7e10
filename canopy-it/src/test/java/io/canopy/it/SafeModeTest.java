package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Manual safe mode, cluster-wide: entered through one namenode, every namenode refuses changes with HDFS's
 * SafeModeException (the other within its refresh interval, a namenode started meanwhile from its first call) while
 * reads go on; left through any namenode, writes work again everywhere.
 */
@Timeout(120)
class SafeModeTest {
  private static final long REFRESH_MS = 100;
  /** Far above the refresh interval: a namenode that has not learned the change by then never will. */
  private static final Duration PROPAGATION_BOUND = Duration.ofSeconds(10);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong(NameNodeConfig.SAFEMODE_REFRESH_MS, REFRESH_MS))
      .nameNodes(2).build(); // no blocks written: no datanodes needed
  static DistributedFileSystem first;
  static DistributedFileSystem second;

  @BeforeAll
  static void clientsAndADirectory() throws IOException {
    first = CLUSTER.fileSystem(0);
    second = CLUSTER.fileSystem(1);
    first.mkdirs(new org.apache.hadoop.fs.Path("/safe/existing"));
  }

  @AfterEach
  void leaveSafeMode() throws IOException {
    first.setSafeMode(SafeModeAction.LEAVE);
    awaitSafeMode(second, false);
  }

  private static void awaitSafeMode(DistributedFileSystem fs, boolean on) throws IOException {
    long deadline = System.nanoTime() + PROPAGATION_BOUND.toNanos();
    while (fs.setSafeMode(SafeModeAction.GET) != on) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("safe mode not " + (on ? "on" : "off") + " on " + fs.getUri() + " within "
            + PROPAGATION_BOUND);
      }
      try {
        Thread.sleep(REFRESH_MS / 2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
  }

  /** HDFS's SafeModeException, thrown as is or inside a RemoteException, with HDFS's message. */
  private static void assertRefused(String prefix, Executable call) {
    IOException error = assertThrows(IOException.class, call);
    if (error instanceof RemoteException remote) {
      assertEquals(SafeModeException.class.getName(), remote.getClassName(), remote.getMessage());
    } else {
      assertEquals(SafeModeException.class, error.getClass(), String.valueOf(error));
    }
    assertTrue(error.getMessage().startsWith(prefix + ". Name node is in safe mode."), error.getMessage());
    assertTrue(error.getMessage().contains("hdfs dfsadmin -safemode leave"), error.getMessage());
  }

  @Test
  void enteringRefusesChangesOnEveryNamenodeAndLeavingAllowsThemAgain() throws IOException {
    assertFalse(first.setSafeMode(SafeModeAction.GET));
    assertTrue(first.setSafeMode(SafeModeAction.ENTER), "ENTER answers the state after it: on");
    assertTrue(first.setSafeMode(SafeModeAction.GET));
    assertRefused("Cannot create directory /safe/new", () -> first.mkdirs(new org.apache.hadoop.fs.Path("/safe/new")));
    assertRefused("Cannot create file/safe/f", () -> first.create(new org.apache.hadoop.fs.Path("/safe/f")).close());
    assertRefused("Cannot delete /safe/existing",
        () -> first.delete(new org.apache.hadoop.fs.Path("/safe/existing"), true));

    awaitSafeMode(second, true);
    assertRefused("Cannot rename /safe/existing", () -> second.rename(new org.apache.hadoop.fs.Path("/safe/existing"),
        new org.apache.hadoop.fs.Path("/safe/moved")));
    assertRefused("Cannot set times /safe/existing",
        () -> second.setTimes(new org.apache.hadoop.fs.Path("/safe/existing"), 1, 1));
    // reads go on
    assertTrue(second.getFileStatus(new org.apache.hadoop.fs.Path("/safe/existing")).isDirectory());
    assertEquals(1, first.listStatus(new org.apache.hadoop.fs.Path("/safe")).length);

    assertFalse(second.setSafeMode(SafeModeAction.LEAVE), "LEAVE answers the state after it: off");
    assertTrue(second.mkdirs(new org.apache.hadoop.fs.Path("/safe/after-leave")));
    awaitSafeMode(first, false);
    assertTrue(first.mkdirs(new org.apache.hadoop.fs.Path("/safe/after-leave-first")));
  }

  @Test
  void aNamenodeStartedDuringSafeModeRefusesFromItsFirstCall() throws IOException {
    assertTrue(first.setSafeMode(SafeModeAction.ENTER));
    CLUSTER.cluster().startNameNode();
    DistributedFileSystem third = CLUSTER.cluster().fileSystem(CLUSTER.cluster().nameNodeCount() - 1);
    assertTrue(third.setSafeMode(SafeModeAction.GET));
    assertRefused("Cannot create directory /safe/third",
        () -> third.mkdirs(new org.apache.hadoop.fs.Path("/safe/third")));
    assertFalse(third.setSafeMode(SafeModeAction.FORCE_EXIT), "FORCE_EXIT leaves as LEAVE does");
    assertTrue(third.mkdirs(new org.apache.hadoop.fs.Path("/safe/third")));
  }
}

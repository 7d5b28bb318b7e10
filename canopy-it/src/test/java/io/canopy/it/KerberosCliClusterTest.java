package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canopy up --secure} (issue 20, design 023): a local KDC, Kerberos on every RPC with privacy, block tokens and
 * SASL data transfer, the CLI logged in from the user's keytab, all in one command; a client without a ticket is
 * refused; the cluster stays secure across {@code down} and a plain {@code up} (its KDC writes new keytabs). Runs in
 * the surefire execution {@code kerberos}, a JVM of its own: the CLI's Kerberos login is process-wide.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class KerberosCliClusterTest {
  private static final int FILE_BYTES = 3 * 1024 * 1024 + 17;

  @TempDir
  static Path work;

  private static CliRunner canopy() {
    return new CliRunner(work.resolve("cluster"));
  }

  @AfterAll
  static void down() {
    canopy().downIfCreated();
  }

  @Test
  void oneCommandBringsUpAKerberizedClusterTheCliUses() throws Exception {
    String user = System.getProperty("user.name");
    byte[] content = new byte[FILE_BYTES];
    new Random(20).nextBytes(content);
    Path local = work.resolve("random.bin");
    Files.write(local, content);

    String defaultFs = canopy().up("--secure", "--datanodes", "2", "-D", "dfs.blocksize=1048576",
        "-D", "dfs.namenode.fs-limits.min-block-size=16", "-D", "dfs.heartbeat.interval=1");
    Path dir = canopy().clusterDir();
    CliRunner.Run status = canopy().succeed("status");
    assertTrue(status.out().lines().anyMatch(line -> line.startsWith("kdc ") && line.contains("running")),
        status.out());
    String coreSite = Files.readString(dir.resolve("etc/core-site.xml"));
    assertTrue(coreSite.contains("<name>hadoop.security.authentication</name><value>kerberos</value>")
        || coreSite.matches("(?s).*hadoop.security.authentication</name>\\s*<value>kerberos.*"), coreSite);
    for (String keytab : new String[] {"service.keytab", "user.keytab"}) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("kdc")
          .resolve(keytab))), keytab + " is for the cluster's owner only");
    }
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("kdc"))));

    canopy().succeed("dfs", "-mkdir", "-p", "/secure");
    canopy().succeed("dfs", "-put", local.toString(), "/secure/random.bin");
    Path copy = work.resolve("copy.bin");
    canopy().succeed("dfs", "-get", "/secure/random.bin", copy.toString());
    assertArrayEquals(content, Files.readAllBytes(copy), "bytes read back (SASL privacy to the datanodes) differ");
    // the namenodes' short name is the user's: the one who ran `up` is the superuser, as without --secure
    assertTrue(canopy().succeed("dfsadmin", "-report").out().contains("Live datanodes (2)"));
    String listing = canopy().succeed("dfs", "-ls", "/secure").out();
    assertTrue(listing.contains(" " + user + " "), "files owned by the principal's short name:\n" + listing);
    // HDFS's fsck over HTTP: SPNEGO from the CLI's login to the namenode's HTTP/127.0.0.1 principal
    String fsck = canopy().succeed("hdfs", "fsck", "/secure").out();
    assertTrue(fsck.strip().endsWith("The filesystem under path '/secure' is HEALTHY"), fsck);
    assertTrue(fsck.contains("FSCK started by " + user + " "), fsck);
    String audit = Files.readString(dir.resolve("logs/namenode-1-audit.log"));
    assertTrue(audit.contains("ugi=" + user + "@CANOPY.LOCAL (auth:KERBEROS)\t"), audit);

    // a client that states a user name without a ticket gets nothing
    Configuration client = new Configuration(false);
    client.addResource(new org.apache.hadoop.fs.Path(dir.resolve("etc/core-site.xml").toUri()));
    client.addResource(new org.apache.hadoop.fs.Path(dir.resolve("etc/hdfs-site.xml").toUri()));
    client.setInt("ipc.client.connect.max.retries", 0);
    UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
    IOException refused = assertThrows(IOException.class, () -> mallory.doAs(
        (PrivilegedExceptionAction<Object>) () -> {
          try (FileSystem fs = FileSystem.newInstance(URI.create(defaultFs), client)) {
            return fs.getFileStatus(new org.apache.hadoop.fs.Path("/secure/random.bin"));
          }
        }));
    String why = KerberosClusterTest.messages(refused);
    assertTrue(why.contains("Client cannot authenticate via:[TOKEN, KERBEROS]"), why);

    // -D settings that need Kerberos are refused without it, naming --secure
    CliRunner.Run plain = new CliRunner(work.resolve("plain")).run("up", "-D", "hadoop.rpc.protection=privacy");
    assertEquals(2, plain.exitCode());
    assertTrue(plain.err().contains("canopy up --secure"), plain.err());

    // down, then a plain up: still secure (kept in cluster.properties), a new KDC, new keytabs, the data still there
    byte[] keytabBefore = Files.readAllBytes(dir.resolve("kdc/user.keytab"));
    canopy().succeed("down");
    assertEquals(3, canopy().run("status").exitCode(), "the KDC stops with the rest");
    canopy().up();
    assertTrue(canopy().succeed("status").out().lines().anyMatch(line -> line.startsWith("kdc ")
        && line.contains("running")));
    assertTrue(!java.util.Arrays.equals(keytabBefore, Files.readAllBytes(dir.resolve("kdc/user.keytab"))),
        "a KDC start makes new keys");
    Path again = work.resolve("again.bin");
    canopy().succeed("dfs", "-get", "/secure/random.bin", again.toString());
    assertArrayEquals(content, Files.readAllBytes(again));
  }
}

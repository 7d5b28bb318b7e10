package io.canopy.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.minikdc.MiniKdc;

/**
 * The process of a secure cluster's {@code kdc} role (canopy up --secure, design 023): Hadoop's MiniKdc on 127.0.0.1
 * at the planned port, realm {@link SecureMode#REALM}, over TCP. At each start it creates the cluster's principals
 * with new random keys and writes their keytabs (0600): {@code service.keytab} (the namenodes' and datanodes'
 * {@code USER/localhost}, {@code HTTP/localhost} and {@code HTTP/127.0.0.1}) and {@code user.keytab}
 * ({@code USER}), then
 * {@code DIR/kdc/ready}; it then serves until stopped (SIGTERM). Its principals live in memory: a KDC restarted alone
 * writes new keytabs, which the namenodes and datanodes read again at their next login.
 *
 * <p>Arguments: {@code KDC_DIR PORT USER}.
 */
public final class LocalKdcMain {
  private LocalKdcMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: LocalKdcMain KDC_DIR PORT USER");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    String user = args[2];
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    Path ready = dir.resolve("ready");
    Files.deleteIfExists(ready);
    // MiniKdc works in DIR/kdc/<start time>, deleted when it stops; a KDC killed with SIGKILL left its own behind
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      for (Path stale : entries.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches("\\d+"))
          .toList()) {
        FileTrees.deleteContents(stale);
        Files.delete(stale);
      }
    }
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.ORG_NAME, SecureMode.ORG_NAME);
    conf.setProperty(MiniKdc.ORG_DOMAIN, SecureMode.ORG_DOMAIN);
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
    conf.setProperty(MiniKdc.KDC_PORT, Integer.toString(port));
    conf.setProperty(MiniKdc.INSTANCE, "canopy");
    MiniKdc kdc = new MiniKdc(conf, dir.toFile());
    kdc.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      kdc.stop();
      stopped.countDown();
    }, "kdc-stop"));
    // MiniKdc works in a new subdirectory per start; the processes read the krb5.conf at a fixed place
    Path krb5Conf = dir.resolve("krb5.conf");
    Path freshConf = dir.resolve("krb5.conf.new");
    Files.copy(kdc.getKrb5conf().toPath(), freshConf, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.move(freshConf, krb5Conf, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    // HTTP/ by name and by address: a SPNEGO client asks for HTTP/ plus the host its URL names (127.0.0.1 here)
    writeKeytab(kdc, dir.resolve("service.keytab"), user + "/" + SecureMode.HOST, "HTTP/" + SecureMode.HOST,
        "HTTP/127.0.0.1");
    writeKeytab(kdc, dir.resolve("user.keytab"), user);
    Files.writeString(ready, "KDC of realm " + kdc.getRealm() + " on 127.0.0.1:" + kdc.getPort() + "\n");
    System.out.println("ready kdc " + kdc.getRealm() + " 127.0.0.1:" + kdc.getPort() + " krb5.conf "
        + krb5Conf);
    System.out.flush();
    stopped.await();
  }

  /** Creates {@code principals} with random keys and writes them to {@code keytab} (0600), replacing it. */
  private static void writeKeytab(MiniKdc kdc, Path keytab, String... principals) throws Exception {
    // written beside it and moved over it: a process reading the keytab meanwhile sees the old one or the new one
    Path fresh = keytab.resolveSibling(keytab.getFileName() + ".new");
    Files.deleteIfExists(fresh);
    kdc.createPrincipal(fresh.toFile(), principals);
    Files.setPosixFilePermissions(fresh, PosixFilePermissions.fromString("rw-------"));
    Files.move(fresh, keytab, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}

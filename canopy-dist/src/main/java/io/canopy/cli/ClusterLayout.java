package io.canopy.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a cluster keeps its files:
 *
 * <pre>
 * DIR/cluster.properties     counts, ports and -D overrides chosen by canopy up (reused by the next up)
 * DIR/etc/*.xml              client configuration (core-site.xml, hdfs-site.xml, canopy-site.xml)
 * DIR/etc/ROLE/*.xml         configuration of one namenode or datanode
 * DIR/db                     PostgreSQL data directory
 * DIR/ignite/db-K            data of Ignite database node K (canopy up --engine ignite); DIR/ignite/initialized once
 *                            the nodes' first start initialized their cluster
 * DIR/secrets/ROLE.password  the embedded database's passwords (0600, the directory 0700; docs/design/010)
 * DIR/kdc                    the local KDC of a secure cluster (canopy up --secure): krb5.conf, keytabs (0600)
 * DIR/dn/I                   data directory of datanode I
 * DIR/logs/ROLE.log          stdout and stderr of one process (the datanodes' shared one: DIR/logs/datanodes.log)
 * DIR/run/ROLE.pid           pid of the process running the role (every datanode's names their shared process)
 * </pre>
 */
public final class ClusterLayout {
  /** Environment variable naming the cluster directory when --dir is not given. */
  public static final String DIR_ENVIRONMENT_VARIABLE = "CANOPY_DIR";
  public static final String DEFAULT_DIR = "canopy-cluster";

  private final Path root;

  public ClusterLayout(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** The directory named by --dir, else by $CANOPY_DIR, else ./canopy-cluster. */
  public static ClusterLayout resolve(String dirOption, String dirEnvironment) {
    if (dirOption != null && !dirOption.isBlank()) {
      return new ClusterLayout(Path.of(dirOption));
    }
    if (dirEnvironment != null && !dirEnvironment.isBlank()) {
      return new ClusterLayout(Path.of(dirEnvironment));
    }
    return new ClusterLayout(Path.of(DEFAULT_DIR));
  }

  public Path root() {
    return root;
  }

  public Path propertiesFile() {
    return root.resolve("cluster.properties");
  }

  /** Client configuration directory. */
  public Path etc() {
    return root.resolve("etc");
  }

  /**
   * Client configuration for Hadoop clients without Canopy's jar on their class path: HDFS's own file system and
   * failover provider, no Canopy class named (design 016).
   */
  public Path stockClientEtc() {
    return etc().resolve("stock-client");
  }

  /** The topology table of a cluster laid over simulated zones (canopy up --azs): datanode host name, location. */
  public Path topologyTable() {
    return etc().resolve("topology.table");
  }

  /** Configuration directory of one namenode or datanode process. */
  public Path confDir(Role role) {
    return role.kind() == Role.Kind.DATABASE ? etc() : etc().resolve(role.name());
  }

  public Path databaseDir() {
    return root.resolve("db");
  }

  /** The Ignite database nodes' data directories (design 020). */
  public Path igniteDir() {
    return root.resolve("ignite");
  }

  /** The work directory of Ignite database node {@code node}. */
  public Path databaseNodeDir(Role node) {
    return igniteDir().resolve(node.name());
  }

  /** Present once the Ignite database nodes' first start initialized their cluster. */
  public Path igniteInitializedMarker() {
    return igniteDir().resolve("initialized");
  }

  /** The embedded database's password files, one per role (see EmbeddedPostgresServer). */
  public Path secretsDir() {
    return root.resolve("secrets");
  }

  /** The work directory of a secure cluster's KDC: its krb5.conf and the keytabs it writes at each start. */
  public Path kdcDir() {
    return root.resolve("kdc");
  }

  /** The Kerberos client configuration every process of a secure cluster reads ({@code java.security.krb5.conf}). */
  public Path krb5Conf() {
    return kdcDir().resolve("krb5.conf");
  }

  /** The keytab of the namenodes' and datanodes' service principals. */
  public Path serviceKeytab() {
    return kdcDir().resolve("service.keytab");
  }

  /** The keytab of the user who runs the cluster, with which the CLI logs in. */
  public Path userKeytab() {
    return kdcDir().resolve("user.keytab");
  }

  /** Written by the KDC once it serves and its keytabs are written; removed before it starts. */
  public Path kdcReadyMarker() {
    return kdcDir().resolve("ready");
  }

  public Path dataNodesDir() {
    return root.resolve("dn");
  }

  public Path dataNodeDir(int index) {
    return dataNodesDir().resolve(Integer.toString(index));
  }

  static final String DATANODES_LOG = "datanodes.log";

  public Path logsDir() {
    return root.resolve("logs");
  }

  /** HDFS's audit log of a namenode's operations (a namenode runs alone in its process). */
  public Path auditLogFile(Role namenode) {
    return logsDir().resolve(namenode.name() + "-audit.log");
  }

  /**
   * The log of {@code role}'s process: the datanodes share one process (one per zone in a cluster over simulated
   * zones), so they share {@code datanodes.log}.
   */
  public Path logFile(Role role) {
    return logsDir().resolve(role.kind() == Role.Kind.DATANODE ? DATANODES_LOG : role.name() + ".log");
  }

  /** Where a namenode writes its per-operation counters (read by the benchmark harness). */
  public Path metricsFile(Role role) {
    return runDir().resolve(role.name() + ".metrics");
  }

  public Path runDir() {
    return root.resolve("run");
  }

  public Path pidFile(Role role) {
    return runDir().resolve(role.name() + ".pid");
  }

  public Path lockFile() {
    return runDir().resolve("canopy.lock");
  }

  /** Whether {@code canopy up} has set up this directory (it writes cluster.properties first). */
  public boolean isCluster() {
    return Files.isRegularFile(propertiesFile());
  }

  /** Fails with an actionable message when DIR holds no cluster. */
  public void requireCluster() {
    if (!isCluster()) {
      throw new CliException("No Canopy cluster in " + root + " (" + propertiesFile().getFileName()
          + " is missing); create one with `canopy up --dir " + root + "` or pass the right --dir / $"
          + DIR_ENVIRONMENT_VARIABLE);
    }
  }

  @Override
  public String toString() {
    return root.toString();
  }
}

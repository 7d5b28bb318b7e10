package io.canopy.cli;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * What {@code canopy up --secure} sets up (design 023): a local KDC of its own (the role {@code kdc}, Hadoop's
 * MiniKdc, realm {@value #REALM}), every namenode and datanode logged in from {@code DIR/kdc/service.keytab} as the
 * service principal {@code USER/localhost}, and the CLI from {@code DIR/kdc/user.keytab} as {@code USER}, where USER is
 * whoever runs {@code canopy up}: the short name of both is USER, so that user stays the superuser, as in a cluster
 * without security. RPC and data transfer default to SASL with privacy; block access tokens are on (Kerberos needs
 * them). Every principal is spelt without {@code _HOST}, so nothing depends on what 127.0.0.1 resolves to.
 *
 * <p>The datanodes run on unprivileged ports with SASL on data transfer; HDFS then also wants their HTTP on HTTPS
 * (keystores), which a local trial cluster does without: {@code ignore.secure.ports.for.testing} (HDFS's switch for its
 * own secure tests) is set for them, and said so in docs/compatibility.md.
 */
final class SecureMode {
  /** The realm of the local KDC: MiniKdc's organisation name and domain, upper case. */
  static final String REALM = "CANOPY.LOCAL";
  static final String ORG_NAME = "CANOPY";
  static final String ORG_DOMAIN = "LOCAL";
  /** The instance of the service principals. */
  static final String HOST = "localhost";
  static final String AUTHENTICATION_KEY = "hadoop.security.authentication";
  static final String RPC_PROTECTION_KEY = "hadoop.rpc.protection";
  /** The JVM's Kerberos configuration file property. */
  static final String KRB5_CONF_PROPERTY = "java.security.krb5.conf";

  /** Keys a secure cluster sets from its own KDC; -D may not set them (to another value than theirs). */
  static final Set<String> KERBEROS_KEYS = Set.of(AUTHENTICATION_KEY,
      DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY,
      DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY,
      DFSConfigKeys.IGNORE_SECURE_PORTS_FOR_TESTING_KEY);

  private SecureMode() {
  }

  /** The user who runs the cluster (and whose short name is its superuser's). */
  static String user() {
    return System.getProperty("user.name");
  }

  /** {@code USER/localhost@CANOPY.LOCAL}: the namenodes' and datanodes' principal. */
  static String servicePrincipal() {
    return user() + "/" + HOST + "@" + REALM;
  }

  /** {@code USER@CANOPY.LOCAL}: the principal the CLI logs in as. */
  static String userPrincipal() {
    return user() + "@" + REALM;
  }

  /** The principals of {@link ClusterLayout#serviceKeytab()}, without the realm (as MiniKdc creates them). */
  static String serviceName() {
    return user() + "/" + HOST;
  }

  /**
   * The defaults of a secure cluster that -D may change (written before the overrides): SASL privacy on RPC and on
   * data transfer.
   */
  static Map<String, String> defaults() {
    return Map.of(RPC_PROTECTION_KEY, "privacy", DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "privacy");
  }

  /**
   * The Kerberos keys of every process of a secure cluster and of its clients (the keytabs, which only the processes
   * have, come from {@link #keytabKeys}).
   */
  static Map<String, String> keys() {
    Map<String, String> keys = new TreeMap<>();
    keys.put(AUTHENTICATION_KEY, "kerberos");
    keys.put(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, servicePrincipal());
    keys.put(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, servicePrincipal());
    keys.put(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, "true");
    return keys;
  }

  /** Where namenode or datanode {@code role} of a secure cluster finds its keytab (nothing for other roles). */
  static Map<String, String> keytabKeys(Role role, ClusterLayout layout) {
    Map<String, String> keys = new TreeMap<>();
    if (role.kind() == Role.Kind.NAMENODE) {
      keys.put(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, layout.serviceKeytab().toString());
    }
    if (role.kind() == Role.Kind.DATANODE) {
      keys.put(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, layout.serviceKeytab().toString());
      keys.put(DFSConfigKeys.IGNORE_SECURE_PORTS_FOR_TESTING_KEY, "true");
    }
    return keys;
  }

  /**
   * Logs this JVM in as the cluster's user when {@code conf} (a client configuration of {@code layout}'s cluster)
   * asks for Kerberos: points the JVM at the cluster's krb5.conf and reads the user's keytab. Nothing happens
   * otherwise. Process-wide, as every Kerberos login of Hadoop's.
   */
  static void loginIfSecure(ClusterLayout layout, Configuration conf) {
    if (!"kerberos".equalsIgnoreCase(conf.getTrimmed(AUTHENTICATION_KEY, "simple"))) {
      return;
    }
    if (!java.nio.file.Files.isRegularFile(layout.userKeytab())) {
      throw new CliException("The cluster in " + layout.root() + " runs in secure mode but " + layout.userKeytab()
          + " is missing (its KDC writes it when it starts): run `canopy up --dir " + layout.root() + "`");
    }
    System.setProperty(KRB5_CONF_PROPERTY, layout.krb5Conf().toString());
    try {
      UserGroupInformation.setConfiguration(conf);
      // every time: a JVM that runs several commands (tests, embedders) may hold a ticket of a KDC since restarted
      UserGroupInformation.loginUserFromKeytab(userPrincipal(), layout.userKeytab().toString());
    } catch (IOException | RuntimeException e) {
      throw new CliException("Cannot log in as " + userPrincipal() + " from " + layout.userKeytab() + " (KDC of "
          + layout.krb5Conf() + "; is the cluster's kdc running? `canopy status --dir " + layout.root() + "`): " + e);
    }
  }
}

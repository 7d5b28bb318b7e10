package io.canopy.cli;

import io.canopy.client.Nameservice;
import io.canopy.metadata.MetadataConfig;
import io.canopy.metadata.ignite.IgniteSettings;
import io.canopy.metadata.postgres.PostgresSettings;
import io.canopy.metadata.postgres.SecretFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What {@code canopy up} chose for a cluster, kept in {@code DIR/cluster.properties} so the next {@code up} restarts
 * the same cluster: process counts, one port per role (plus each datanode's IPC port, under {@code ROLE.ipc}, and each
 * namenode's service port, where datanodes report, under {@code ROLE.service}), and the {@code -D} overrides.
 */
public final class ClusterProperties {
  private static final String NAMENODES = "namenodes";
  private static final String DATANODES = "datanodes";
  private static final String ZONES = "zones";
  private static final String ENGINE = "engine";
  private static final String DATABASE_NODES = "db-nodes";
  /** The metadata engines {@code canopy up --engine} runs: embedded PostgreSQL, or Apache Ignite 3 nodes (design 020). */
  public static final String POSTGRES = MetadataConfig.ENGINE_DEFAULT;
  public static final String IGNITE = IgniteSettings.ENGINE_NAME;
  /** The suffixes of a database node's second and third ports (its client port is the role's). */
  private static final String NETWORK_SUFFIX = ".network";
  private static final String REST_SUFFIX = ".rest";
  private static final String PORT_PREFIX = "port.";
  private static final String OVERRIDE_PREFIX = "override.";
  private static final String IPC_SUFFIX = ".ipc";
  private static final String SERVICE_SUFFIX = ".service";
  private static final String HTTP_SUFFIX = ".http";

  private final int namenodes;
  private final int datanodes;
  /** Simulated availability zones the processes are spread over (design 019); 0: none. */
  private final int zones;
  private final Map<String, Integer> ports;
  private final Map<String, String> overrides;
  /** {@link #POSTGRES} or {@link #IGNITE}. */
  private final String engine;
  /** Database nodes canopy runs for a distributed engine (1 for PostgreSQL). */
  private final int databaseNodes;

  public ClusterProperties(int namenodes, int datanodes, Map<String, Integer> ports, Map<String, String> overrides) {
    this(namenodes, datanodes, 0, ports, overrides);
  }

  public ClusterProperties(int namenodes, int datanodes, int zones, Map<String, Integer> ports,
      Map<String, String> overrides) {
    this(POSTGRES, 1, namenodes, datanodes, zones, ports, overrides);
  }

  public ClusterProperties(String engine, int databaseNodes, int namenodes, int datanodes, int zones,
      Map<String, Integer> ports, Map<String, String> overrides) {
    if (zones < 0) {
      throw new IllegalArgumentException("invariant: zones >= 0, got " + zones);
    }
    if (!engine.equals(POSTGRES) && !engine.equals(IGNITE)) {
      throw new IllegalArgumentException("engine '" + engine + "' is neither " + POSTGRES + " nor " + IGNITE);
    }
    if (databaseNodes < 1 || engine.equals(POSTGRES) && databaseNodes != 1) {
      throw new IllegalArgumentException("invariant: " + databaseNodes + " database nodes for engine " + engine);
    }
    this.engine = engine;
    this.databaseNodes = databaseNodes;
    this.namenodes = namenodes;
    this.datanodes = datanodes;
    this.zones = zones;
    this.ports = Collections.unmodifiableMap(new TreeMap<>(ports));
    this.overrides = Collections.unmodifiableMap(new TreeMap<>(overrides));
  }

  public int namenodes() {
    return namenodes;
  }

  /** The metadata engine: {@link #POSTGRES} or {@link #IGNITE}. */
  public String engine() {
    return engine;
  }

  /** Whether the metadata is on Apache Ignite 3 (design 020). */
  public boolean onIgnite() {
    return engine.equals(IGNITE);
  }

  /** Database nodes of a distributed engine (1 for PostgreSQL). */
  public int databaseNodes() {
    return databaseNodes;
  }

  /**
   * The processes canopy runs for the metadata, in start order: none when it is external, the embedded PostgreSQL,
   * or {@code db-1..db-N} of Ignite.
   */
  public List<Role> databaseRoles() {
    return databaseRoles(engine, databaseNodes, overrides);
  }

  static List<Role> databaseRoles(String engine, int databaseNodes, Map<String, String> overrides) {
    if (isExternal(engine, overrides)) {
      return List.of();
    }
    if (engine.equals(POSTGRES)) {
      return List.of(Role.DATABASE);
    }
    List<Role> roles = new ArrayList<>();
    for (int i = 1; i <= databaseNodes; i++) {
      roles.add(Role.databaseNode(i));
    }
    return roles;
  }

  /** The key of a database node's cluster-network port in {@link #ports()}. */
  public static String networkPortKey(Role databaseNode) {
    return databaseNode.name() + NETWORK_SUFFIX;
  }

  /** The key of a database node's REST port in {@link #ports()}. */
  public static String restPortKey(Role databaseNode) {
    return databaseNode.name() + REST_SUFFIX;
  }

  /** A port of {@link #ports()} by its key, refused with a repair hint when missing. */
  public int portOf(String key) {
    Integer port = ports.get(key);
    if (port == null) {
      throw new CliException("cluster.properties has no port " + key + "; run `canopy down` then `canopy up` to "
          + "plan one");
    }
    return port;
  }

  /** host:port of every database node's client connector, db-1 first (Ignite clusters run by canopy). */
  public List<String> databaseNodeClientAddresses() {
    List<String> addresses = new ArrayList<>();
    for (Role role : databaseRoles()) {
      addresses.add("127.0.0.1:" + port(role));
    }
    return addresses;
  }

  public int datanodes() {
    return datanodes;
  }

  /** The simulated availability zones (canopy up --azs), 0 when the cluster has none. */
  public int zones() {
    return zones;
  }

  /**
   * The zone of a namenode or datanode, 1..{@link #zones()}, round-robin by index (namenode 1 and datanode 1 in zone
   * 1, namenode 2 and datanode 2 in zone 2, ...); 0 when the cluster has no zones.
   */
  public int zoneOf(Role role) {
    return zones == 0 ? 0 : (role.index() - 1) % zones + 1;
  }

  /**
   * Port of each role by role name; datanodes' is their data-transfer port, and their IPC port (where
   * {@code refreshNamenodes} is sent) is under {@link #ipcPortKey}.
   */
  public Map<String, Integer> ports() {
    return ports;
  }

  public int port(Role role) {
    Integer port = ports.get(role.name());
    if (port == null) {
      throw new CliException("cluster.properties has no port for " + role + "; run `canopy up` to repair it");
    }
    return port;
  }

  /** The key of a datanode's IPC port in {@link #ports()}. */
  public static String ipcPortKey(Role datanode) {
    return datanode.name() + IPC_SUFFIX;
  }

  /** The IPC port of a datanode, empty for a cluster planned before datanodes had a fixed one. */
  public OptionalInt ipcPort(Role datanode) {
    Integer port = ports.get(ipcPortKey(datanode));
    return port == null ? OptionalInt.empty() : OptionalInt.of(port);
  }

  /** The key of a namenode's service RPC port in {@link #ports()}. */
  public static String servicePortKey(Role namenode) {
    return namenode.name() + SERVICE_SUFFIX;
  }

  /** The service RPC port of a namenode: where datanodes send DatanodeProtocol. */
  public int servicePort(Role namenode) {
    Integer port = ports.get(servicePortKey(namenode));
    if (port == null) {
      throw new CliException("cluster.properties has no service port for " + namenode + " (the cluster was planned "
          + "by an older canopy); run `canopy down` then `canopy up` to plan one");
    }
    return port;
  }

  /** The key of a namenode's HTTP port (status page, WebHDFS, /jmx) in {@link #ports()}. */
  public static String httpPortKey(Role namenode) {
    return namenode.name() + HTTP_SUFFIX;
  }

  /** The HTTP port of a namenode, empty for a cluster planned before namenodes served HTTP. */
  public OptionalInt httpPort(Role namenode) {
    Integer port = ports.get(httpPortKey(namenode));
    return port == null ? OptionalInt.empty() : OptionalInt.of(port);
  }

  /** {@code http://127.0.0.1:PORT} of a namenode's HTTP server, empty when the cluster planned none. */
  public Optional<String> httpUrl(Role namenode) {
    OptionalInt port = httpPort(namenode);
    return port.isPresent() ? Optional.of("http://127.0.0.1:" + port.getAsInt()) : Optional.empty();
  }

  /** host:port of every namenode's service RPC server, namenode 1 first, where datanodes report. */
  public List<String> namenodeServiceAddresses() {
    List<String> addresses = new ArrayList<>();
    for (int i = 1; i <= namenodes; i++) {
      addresses.add("127.0.0.1:" + servicePort(Role.namenode(i)));
    }
    return addresses;
  }

  /** host:port of every namenode's RPC server, namenode 1 first: the members of the nameservice. */
  public List<String> namenodeAddresses() {
    List<String> addresses = new ArrayList<>();
    for (int i = 1; i <= namenodes; i++) {
      addresses.add("127.0.0.1:" + port(Role.namenode(i)));
    }
    return addresses;
  }

  /** Whether clients reach the namenodes through the nameservice (more than one namenode) or namenode 1 directly. */
  public boolean clientsUseNameservice() {
    return namenodes > 1;
  }

  /**
   * This cluster with one more namenode, namenode-(N+1): clients on {@code port}, datanodes on {@code servicePort},
   * HTTP on {@code httpPort}.
   */
  public ClusterProperties withAddedNamenode(int port, int servicePort, int httpPort) {
    Map<String, Integer> morePorts = new TreeMap<>(ports);
    Role added = Role.namenode(namenodes + 1);
    morePorts.put(added.name(), port);
    morePorts.put(servicePortKey(added), servicePort);
    morePorts.put(httpPortKey(added), httpPort);
    return new ClusterProperties(engine, databaseNodes, namenodes + 1, datanodes, zones, morePorts, overrides);
  }

  /** {@code -D} configuration overrides, written into every process's configuration. */
  public Map<String, String> overrides() {
    return overrides;
  }

  /** Every process of the cluster in start order: the KDC of a secure cluster, the database, namenodes, datanodes. */
  public Iterable<Role> roles() {
    List<Role> roles = new ArrayList<>();
    if (secure()) {
      roles.add(Role.KDC);
    }
    roles.addAll(Role.all(databaseRoles(), namenodes, datanodes));
    return roles;
  }

  /**
   * Whether the cluster runs in secure mode ({@code canopy up --secure}, design 023): Kerberos on every RPC, with a
   * local KDC of its own. Recorded as the KDC's planned port, which only a secure cluster has.
   */
  public boolean secure() {
    return ports.containsKey(Role.KDC.name());
  }

  /** This cluster's plan with its KDC port removed: the same cluster with simple authentication. */
  public ClusterProperties withoutKdc() {
    Map<String, Integer> fewer = new TreeMap<>(ports);
    fewer.remove(Role.KDC.name());
    return new ClusterProperties(engine, databaseNodes, namenodes, datanodes, zones, fewer, overrides);
  }

  /**
   * True when the metadata is in a database canopy does not run: a -D canopy.metadata.jdbc.url names an external
   * PostgreSQL, or -D canopy.metadata.ignite.addresses an external Ignite cluster.
   */
  public boolean externalDatabase() {
    return isExternal(engine, overrides);
  }

  static boolean isExternal(String engine, Map<String, String> overrides) {
    return overrides.containsKey(externalKey(engine));
  }

  /** The setting that names an external database of {@code engine}. */
  static String externalKey(String engine) {
    return engine.equals(IGNITE) ? IgniteSettings.ADDRESSES : PostgresSettings.JDBC_URL;
  }

  /** Whether the cluster in {@code layout} keeps its metadata in an external database. */
  static boolean externalDatabase(ClusterLayout layout) {
    return load(layout.propertiesFile()).map(ClusterProperties::externalDatabase).orElse(false);
  }

  /**
   * The file system clients use: namenode 1's address when it is the only namenode (so any Hadoop client can use it
   * without configuration), else the nameservice ({@code hdfs://canopy}) that lists every namenode.
   */
  public String defaultFs() {
    if (clientsUseNameservice()) {
      return Nameservice.uri(Nameservice.DEFAULT_NAME).toString();
    }
    return "hdfs://127.0.0.1:" + port(Role.namenode(1));
  }

  public static Optional<ClusterProperties> load(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
      Map<String, Integer> ports = new TreeMap<>();
      Map<String, String> overrides = new TreeMap<>();
      for (String key : properties.stringPropertyNames()) {
        if (key.startsWith(PORT_PREFIX)) {
          ports.put(key.substring(PORT_PREFIX.length()), Integer.parseInt(properties.getProperty(key).trim()));
        } else if (key.startsWith(OVERRIDE_PREFIX)) {
          overrides.put(key.substring(OVERRIDE_PREFIX.length()), properties.getProperty(key));
        }
      }
      return Optional.of(new ClusterProperties(properties.getProperty(ENGINE, POSTGRES).trim(),
          Integer.parseInt(properties.getProperty(DATABASE_NODES, "1").trim()),
          Integer.parseInt(properties.getProperty(NAMENODES, "1").trim()),
          Integer.parseInt(properties.getProperty(DATANODES, "0").trim()),
          Integer.parseInt(properties.getProperty(ZONES, "0").trim()), ports, overrides));
    } catch (IOException | IllegalArgumentException e) { // NumberFormatException, a negative count
      throw new CliException("Cannot read " + file + ": " + e.getMessage() + "; fix or delete the file");
    }
  }

  public void store(Path file) throws IOException {
    Properties properties = new Properties();
    properties.setProperty(NAMENODES, Integer.toString(namenodes));
    properties.setProperty(DATANODES, Integer.toString(datanodes));
    properties.setProperty(ZONES, Integer.toString(zones));
    properties.setProperty(ENGINE, engine);
    properties.setProperty(DATABASE_NODES, Integer.toString(databaseNodes));
    ports.forEach((role, port) -> properties.setProperty(PORT_PREFIX + role, Integer.toString(port)));
    overrides.forEach((key, value) -> properties.setProperty(OVERRIDE_PREFIX + key, value));
    StringWriter text = new StringWriter();
    properties.store(text, null);
    // Properties writes a date comment and hash order; keep the file stable and sorted instead.
    String body = text.toString().lines().filter(line -> !line.startsWith("#")).sorted()
        .collect(Collectors.joining("\n", "", "\n"));
    Files.createDirectories(file.getParent());
    // 0600: the overrides may hold an external database's login.
    SecretFiles.write(file, "# Written by canopy up; the next canopy up reuses these counts, ports and "
        + "overrides.\n" + body);
  }
}

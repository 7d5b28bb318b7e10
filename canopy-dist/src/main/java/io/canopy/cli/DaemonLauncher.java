package io.canopy.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Starts a role (or the datanodes, several roles in one process: design 014) as a background process: {@code java}
 * of the running JVM with the CLI's own class path, output appended to the role's log, stdin from /dev/null, in a new session ({@code setsid}) when available so
 * it outlives the CLI and the terminal.
 *
 * <p>A datanode's configuration directory ({@code DIR/etc/datanode-I}) comes first on its class path, as
 * {@code HADOOP_CONF_DIR} does for Hadoop's own daemons: a stock DataNode asked to {@code refreshNamenodes} re-reads
 * its namenode list from a {@code new Configuration()}, that is from {@code core-site.xml} and {@code hdfs-site.xml}
 * found on the class path, not from the files it was started with.
 */
public final class DaemonLauncher {
  /** Class path for the processes; defaults to this JVM's. Lets embedders (tests) pass a different one. */
  public static final String CLASSPATH_PROPERTY = "canopy.classpath";
  /** Log4j configuration resource of the processes; the benchmark harness sets a quieter one. */
  public static final String LOG4J_PROPERTY = "canopy.daemon.log4j";
  private static final String DEFAULT_LOG4J = "canopy-daemon-log4j.properties";
  /** A namenode's logging: the daemons' and HDFS's audit log, to the file the {@link #AUDIT_LOG_PROPERTY} names. */
  private static final String NAMENODE_LOG4J = "canopy-namenode-log4j.properties";
  static final String AUDIT_LOG_PROPERTY = "canopy.audit.log";
  /**
   * With a kind's name ({@link #jvmOptionsProperty}): JVM options, words separated by spaces, that the launching JVM
   * adds to every process of that kind, after those of the kind's environment variable (the benchmark harness starts
   * its namenodes with Java Flight Recorder already running).
   */
  public static final String JVM_OPTIONS_PROPERTY_PREFIX = "canopy.daemon.jvm-options.";
  /** JVM options every process gets. Hadoop 3 on Java 17 reflects into these packages. */
  private static final List<String> COMMON_JVM_OPTIONS = List.of("-XX:+ExitOnOutOfMemoryError",
      "-Djava.net.preferIPv4Stack=true",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED");

  /**
   * Class path of the database nodes of a cluster on Ignite (design 020), apart from everyone else's; by default
   * {@code canopy-ignite-node/target/lib/*} of the source tree this launcher's jar was built in.
   */
  public static final String IGNITE_NODE_CLASSPATH_PROPERTY = "canopy.ignite-node.classpath";
  /** What Ignite 3's server needs opened on Java 17 (its embedded-mode guide), beyond {@link #COMMON_JVM_OPTIONS}. */
  private static final List<String> DB_NODE_JVM_OPTIONS = List.of("--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.math=ALL-UNNAMED", "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.access=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true");

  private final ClusterLayout layout;
  private final String javaExecutable;
  private final String classPath;
  private final String setsid;

  DaemonLauncher(ClusterLayout layout, String javaExecutable, String classPath, String setsid) {
    this.layout = layout;
    this.javaExecutable = javaExecutable;
    this.classPath = classPath;
    this.setsid = setsid;
  }

  public static DaemonLauncher forThisJvm(ClusterLayout layout) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = System.getProperty(CLASSPATH_PROPERTY, System.getProperty("java.class.path"));
    return new DaemonLauncher(layout, java, classPath, findOnPath("setsid"));
  }

  private static String findOnPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, program);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  /** The full command line that runs {@code role} with {@code arguments}. */
  public List<String> command(Role role, List<String> arguments) {
    return command(List.of(role), arguments);
  }

  /**
   * The full command line of one process that runs every role of {@code roles} (all of one kind, the datanodes of
   * a local cluster) with {@code arguments}. It carries each role's marker, so {@link Daemons} knows it as the
   * process of each of them.
   */
  public List<String> command(List<Role> roles, List<String> arguments) {
    Role first = checkOneKind(roles);
    List<String> command = new ArrayList<>();
    if (setsid != null) {
      // Our child is never a process-group leader, so setsid calls setsid(2) and execs: the pid stays java's.
      command.add(setsid);
    }
    command.add(javaExecutable);
    command.add(first.kind().heapOption(roles.size()));
    command.add(Daemons.DIR_MARKER + layout.root());
    for (Role role : roles) {
      command.add(Daemons.ROLE_MARKER + role.name());
    }
    command.addAll(COMMON_JVM_OPTIONS);
    if (first.kind() == Role.Kind.DB_NODE) {
      command.addAll(DB_NODE_JVM_OPTIONS);
    } else {
      boolean namenode = first.kind() == Role.Kind.NAMENODE;
      command.add("-Dlog4j.configuration=" + System.getProperty(LOG4J_PROPERTY, namenode ? NAMENODE_LOG4J
          : DEFAULT_LOG4J));
      if (namenode) {
        command.add("-D" + AUDIT_LOG_PROPERTY + "=" + layout.auditLogFile(first));
      }
    }
    if ((first.kind() == Role.Kind.NAMENODE || first.kind() == Role.Kind.DATANODE)
        && Files.isRegularFile(layout.krb5Conf())) {
      // a secure cluster's (canopy up --secure): its KDC's realm and address
      command.add("-D" + SecureMode.KRB5_CONF_PROPERTY + "=" + layout.krb5Conf());
    }
    addWords(command, System.getenv(first.kind().optionsVariable()));
    addWords(command, System.getProperty(jvmOptionsProperty(first.kind())));
    command.add("-cp");
    // Every datanode's site files name the same namenodes, so the first one's serve refreshNamenodes for all.
    command.add(switch (first.kind()) {
      case DATANODE -> layout.confDir(first) + File.pathSeparator + classPath;
      case DB_NODE -> igniteNodeClassPath();
      default -> classPath;
    });
    command.add(first.kind().mainClass());
    command.addAll(arguments);
    return command;
  }

  /**
   * The database nodes' class path: {@link #IGNITE_NODE_CLASSPATH_PROPERTY}, else the {@code canopy-ignite-node}
   * build beside the module this class was loaded from ({@code ROOT/MODULE/target/lib/x.jar}).
   */
  static String igniteNodeClassPath() {
    String configured = System.getProperty(IGNITE_NODE_CLASSPATH_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    Path lib = null;
    try {
      // ROOT/MODULE/target/lib/x.jar (bin/canopy, the benchmark) or ROOT/MODULE/target/classes (a module's tests)
      Path ancestor = Path.of(DaemonLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      for (int up = 0; up < 5 && ancestor != null && lib == null; up++, ancestor = ancestor.getParent()) {
        Path candidate = ancestor.resolve("canopy-ignite-node").resolve("target").resolve("lib");
        lib = Files.isDirectory(candidate) ? candidate : null;
      }
    } catch (java.net.URISyntaxException | RuntimeException e) {
      // no code source: reported below
    }
    if (lib == null) {
      throw new CliException("No class path for the Ignite database nodes (no canopy-ignite-node/target/lib beside "
          + "this build): build them with `mvn -DskipTests package -pl canopy-ignite-node` or set -D"
          + IGNITE_NODE_CLASSPATH_PROPERTY + "=PATH/*");
    }
    return lib + File.separator + "*";
  }

  /** The system property whose words are added to the JVM options of every process of {@code kind}. */
  public static String jvmOptionsProperty(Role.Kind kind) {
    return JVM_OPTIONS_PROPERTY_PREFIX + kind.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static void addWords(List<String> command, String words) {
    if (words != null && !words.isBlank()) {
      command.addAll(Arrays.asList(words.trim().split("\\s+")));
    }
  }

  private static Role checkOneKind(List<Role> roles) {
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("a process runs at least one role");
    }
    for (Role role : roles) {
      if (role.kind() != roles.get(0).kind()) {
        throw new IllegalArgumentException("one process runs roles of one kind, not " + roles);
      }
    }
    return roles.get(0);
  }

  /** Starts {@code role} and records its pid. */
  public Process start(Role role, List<String> arguments) throws IOException {
    return start(List.of(role), arguments);
  }

  /** Starts one process for every role of {@code roles} and records its pid as each role's. */
  public Process start(List<Role> roles, List<String> arguments) throws IOException {
    Role first = checkOneKind(roles);
    Path log = layout.logFile(first);
    Files.createDirectories(log.getParent());
    Files.writeString(log, "==== canopy: starting " + Role.names(roles) + " at " + Instant.now() + "\n",
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    ProcessBuilder builder = new ProcessBuilder(command(roles, arguments))
        .directory(layout.root().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectErrorStream(true);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new CliException("Cannot start " + Role.names(roles) + " (" + javaExecutable + "): " + e.getMessage());
    }
    Daemons daemons = new Daemons(layout);
    for (Role role : roles) {
      daemons.writePid(role, process.pid());
    }
    return process;
  }
}

package io.canopy.bench.hdfs;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import sun.misc.Signal;

/**
 * The HDFS baseline as a process: a real Apache HDFS namenode and {@code DATANODES} Apache DataNodes in one JVM
 * ({@link MiniDFSCluster} from the hadoop-hdfs test jar), everything on 127.0.0.1.
 *
 * <pre>HdfsBaselineMain DIR DATANODES [key=value ...]</pre>
 *
 * <p>Formats a fresh namespace under {@code DIR/minidfs} on every start. The key=value pairs go into the
 * Configuration; otherwise HDFS defaults hold, notably a durable edit log (fsync on every log sync; MiniDFSCluster
 * skips that by default for tests and we turn it back on). The pseudo setting
 * {@value #SKIP_FSYNC_KEY}=true keeps MiniDFSCluster's test mode instead, for a deliberately non-durable baseline.
 *
 * <p>Prints exactly one line to stdout, {@code ready hdfs://127.0.0.1:PORT}, once the namenode is active and every
 * datanode is live; other messages go to stderr and Hadoop's logs to {@code DIR/hdfs.log} at WARN (unless the
 * {@code log4j.configuration} system property names another configuration). Runs until SIGTERM, then shuts the
 * cluster down. Exits by itself if the process named by {@value ChildJvm#PARENT_PID_PROPERTY} exits.
 */
public final class HdfsBaselineMain {
  /** Not a Hadoop setting: true keeps MiniDFSCluster's skip-fsync test mode (a non-durable edit log). */
  public static final String SKIP_FSYNC_KEY = "canopy.bench.hdfs.skip-fsync";
  /** The log file under DIR (the launcher appends the process's stdout and stderr to the same file). */
  public static final String LOG_FILE = "hdfs.log";
  static final String READY_PREFIX = "ready ";
  private static final String LOOPBACK = "127.0.0.1";
  private static final int BIND_ATTEMPTS = 5;
  private static final long LIVE_DATANODES_WAIT_MS = 120_000;
  private static final long STOP_GRACE_MS = 60_000;
  /** Counted down by SIGTERM, SIGINT or the parent's exit. */
  private static final CountDownLatch STOP = new CountDownLatch(1);

  private HdfsBaselineMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      usage("expected DIR DATANODES [key=value ...]");
    }
    Path dir = Path.of(args[0]).toAbsolutePath();
    int datanodes;
    try {
      datanodes = Integer.parseInt(args[1]);
    } catch (NumberFormatException e) {
      datanodes = -1;
    }
    if (datanodes < 0) {
      usage("DATANODES must be a number >= 0, got " + args[1]);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        usage("expected key=value, got " + args[i]);
      }
      settings.put(args[i].substring(0, eq).trim(), args[i].substring(eq + 1).trim());
    }
    Files.createDirectories(dir);
    configureLogging(dir.resolve(LOG_FILE));
    // SIGTERM (and Ctrl-C) stop the cluster on the main thread, outside JVM shutdown: Hadoop's services remove
    // their shutdown hooks while they stop, which fails once the JVM is shutting down.
    Signal.handle(new Signal("TERM"), signal -> requestStop("SIGTERM"));
    Signal.handle(new Signal("INT"), signal -> requestStop("SIGINT"));
    ChildJvm.whenParentDies(() -> requestStop("the parent process exited"));
    try {
      run(dir, datanodes, settings);
      System.exit(0);
    } catch (Throwable e) {
      System.err.println("HDFS baseline failed: " + e);
      e.printStackTrace();
      // Threads of a half-started cluster would keep the JVM alive.
      System.exit(1);
    }
  }

  /** Asks the main thread to stop the cluster and exit; halts the JVM if that takes longer than a minute. */
  private static void requestStop(String why) {
    if (STOP.getCount() == 0) {
      return;
    }
    System.err.println("stopping the HDFS baseline: " + why);
    STOP.countDown();
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(STOP_GRACE_MS);
      } catch (InterruptedException e) {
        return;
      }
      System.err.println("the HDFS baseline did not stop within " + STOP_GRACE_MS / 1000 + " s; halting");
      Runtime.getRuntime().halt(1);
    }, "stop-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private static void usage(String problem) {
    System.err.println("HdfsBaselineMain: " + problem);
    System.err.println("usage: HdfsBaselineMain DIR DATANODES [key=value ...]");
    System.exit(2);
  }

  /**
   * Hadoop's logging at WARN into {@code log}, unless log4j.configuration says otherwise. Must run before any
   * Hadoop class logs: log4j would otherwise look for a configuration of its own.
   */
  private static void configureLogging(Path log) {
    if (System.getProperty("log4j.configuration") != null) {
      return;
    }
    System.setProperty("log4j.defaultInitOverride", "true");
    Properties properties = new Properties();
    properties.setProperty("log4j.rootLogger", "WARN, file");
    properties.setProperty("log4j.appender.file", "org.apache.log4j.FileAppender");
    properties.setProperty("log4j.appender.file.File", log.toString());
    properties.setProperty("log4j.appender.file.Append", "true");
    properties.setProperty("log4j.appender.file.layout", "org.apache.log4j.PatternLayout");
    properties.setProperty("log4j.appender.file.layout.ConversionPattern", "%d{ISO8601} %-5p [%t] %c{2}: %m%n");
    // Every JVM without Hadoop's native library says so; not actionable.
    properties.setProperty("log4j.logger.org.apache.hadoop.util.NativeCodeLoader", "ERROR");
    org.apache.log4j.PropertyConfigurator.configure(properties);
  }

  private static void run(Path dir, int datanodes, Map<String, String> settings) throws Exception {
    PrintStream err = System.err;
    boolean skipFsync = Boolean.parseBoolean(settings.getOrDefault(SKIP_FSYNC_KEY, "false"));
    Path base = dir.resolve("minidfs");
    MiniDFSCluster cluster = null;
    IOException lastBindFailure = null;
    for (int attempt = 1; attempt <= BIND_ATTEMPTS && cluster == null; attempt++) {
      deleteTree(base);
      // HDFS binds the namenode to a configured port: take a free one. Another process may grab it before the
      // namenode binds it, hence the retries.
      int port = freePort();
      Configuration conf = configuration(dir, settings);
      try {
        cluster = new MiniDFSCluster.Builder(conf, base.toFile())
            .nameNodePort(port)
            .nameNodeHttpPort(0)
            .numDataNodes(datanodes)
            .format(true)
            .checkDataNodeAddrConfig(true)
            .checkDataNodeHostConfig(true)
            .skipFsyncForTesting(skipFsync)
            .build();
      } catch (IOException e) {
        if (!causedByBind(e)) {
          throw e;
        }
        err.println("namenode port " + port + " was taken meanwhile (" + e.getMessage() + "); retrying");
        lastBindFailure = e;
      }
    }
    if (cluster == null) {
      throw lastBindFailure;
    }
    MiniDFSCluster started = cluster;
    try {
      serve(started, base, datanodes, skipFsync);
    } finally {
      started.shutdown();
      err.println("HDFS baseline stopped");
    }
  }

  /** Waits until the cluster is ready, says so, and then until a stop is requested. */
  private static void serve(MiniDFSCluster started, Path base, int datanodes, boolean skipFsync) throws Exception {
    PrintStream err = System.err;
    if (STOP.getCount() == 0) {
      return;
    }
    started.waitActive();
    if (!awaitLiveDatanodes(started, datanodes)) {
      return;
    }
    Configuration conf = started.getConfiguration(0);
    String durability = skipFsync
        ? "NOT durable: edit log writes are not fsync'ed (" + SKIP_FSYNC_KEY + "=true)"
        : conf.getBoolean(DFSConfigKeys.DFS_NAMENODE_EDITS_NOEDITLOGCHANNELFLUSH,
            DFSConfigKeys.DFS_NAMENODE_EDITS_NOEDITLOGCHANNELFLUSH_DEFAULT)
            ? "durable: edit log opened with synchronous writes (rwd), no fsync ("
                + DFSConfigKeys.DFS_NAMENODE_EDITS_NOEDITLOGCHANNELFLUSH + "=true)"
            : "durable: edit log fsync'ed on every log sync (HDFS default)";
    String uri = "hdfs://" + LOOPBACK + ":" + started.getNameNodePort();
    err.println("HDFS baseline " + org.apache.hadoop.util.VersionInfo.getVersion() + ": 1 namenode, " + datanodes
        + " datanode(s), base dir " + base + ", replication " + conf.get(DFSConfigKeys.DFS_REPLICATION_KEY)
        + ", block size " + conf.get(DFSConfigKeys.DFS_BLOCK_SIZE_KEY) + ", "
        + DFSConfigKeys.DFS_NAMENODE_EDITS_ASYNC_LOGGING + "=" + conf.getBoolean(
            DFSConfigKeys.DFS_NAMENODE_EDITS_ASYNC_LOGGING, DFSConfigKeys.DFS_NAMENODE_EDITS_ASYNC_LOGGING_DEFAULT));
    err.println("durability: " + durability);
    err.flush();
    System.out.println(READY_PREFIX + uri);
    System.out.flush();
    STOP.await();
  }

  private static Configuration configuration(Path dir, Map<String, String> settings) {
    Configuration conf = new HdfsConfiguration();
    conf.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
    // Loopback only: no wildcard addresses anywhere.
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_BIND_HOST_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_BIND_HOST_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_NAMENODE_SECONDARY_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_SECONDARY_HTTPS_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HOST_NAME_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_KEY, LOOPBACK + ":0");
    settings.forEach((key, value) -> {
      if (!key.equals(SKIP_FSYNC_KEY)) {
        conf.set(key, value);
      }
    });
    return conf;
  }

  /** True once every datanode is live; false if a stop was requested first. */
  private static boolean awaitLiveDatanodes(MiniDFSCluster cluster, int datanodes) throws Exception {
    long deadline = System.currentTimeMillis() + LIVE_DATANODES_WAIT_MS;
    while (STOP.getCount() > 0) {
      int live = cluster.getFileSystem().getClient().datanodeReport(DatanodeReportType.LIVE).length;
      if (live >= datanodes) {
        return true;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("only " + live + " of " + datanodes + " datanodes live after "
            + LIVE_DATANODES_WAIT_MS / 1000 + " s");
      }
      Thread.sleep(100);
    }
    return false;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    }
  }

  private static boolean causedByBind(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof BindException || String.valueOf(t.getMessage()).contains("Address already in use")) {
        return true;
      }
    }
    return false;
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        File file = path.toFile();
        file.setWritable(true);
        Files.deleteIfExists(path);
      }
    }
  }
}

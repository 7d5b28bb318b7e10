package io.canopy.namenode.http;

import io.canopy.namenode.metrics.ClusterStatusMonitor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.http.PrometheusServlet;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.sink.PrometheusMetricsSink;
import org.apache.hadoop.net.NetUtils;

/**
 * The namenode's HTTP server: Hadoop's {@code HttpServer2} (with its {@code /jmx}, {@code /prom}, {@code /conf},
 * {@code /stacks} and {@code /logLevel}), the status page at {@code /} (web application {@code webapps/canopy}) and
 * the status it shows at {@code /status.json}, WebHDFS at {@code /webhdfs/v1}, and {@code /fsck} for hdfs fsck.
 */
public final class NamenodeHttpServer implements AutoCloseable {
  /** The web application's name: its static files are the class path's {@code webapps/canopy}. */
  static final String WEB_APPLICATION = "canopy";

  /** Where HttpServer2's PrometheusServlet finds its sink (HttpServer2.PROMETHEUS_SINK, a protected constant). */
  private static final String PROMETHEUS_SINK_ATTRIBUTE = "PROMETHEUS_SINK";

  private final HttpServer2 server;
  private final WebHdfs webHdfs;

  private NamenodeHttpServer(HttpServer2 server, WebHdfs webHdfs) {
    this.server = server;
    this.webHdfs = webHdfs;
  }

  /**
   * Starts serving on {@code address} (host:port; port 0 picks a free one). WebHDFS and fsck answer "startup mode"
   * until {@link #startServing}. Prometheus text is at {@code /prom} unless {@code hadoop.prometheus.endpoint.enabled}
   * says otherwise: Hadoop's servlet and sink, the sink registered under a name of this server's own (HttpServer2's
   * fixed name would keep only the first server's sink in a process running several).
   */
  public static NamenodeHttpServer start(Configuration conf, InetSocketAddress address, WebHdfs webHdfs,
      ClusterStatusMonitor status, Supplier<List<String>> liveDatanodeLocations, FsckServlet.Context fsck)
      throws IOException {
    boolean prometheus = !setByUser(conf, CommonConfigurationKeysPublic.HADOOP_PROMETHEUS_ENABLED)
        || conf.getBoolean(CommonConfigurationKeysPublic.HADOOP_PROMETHEUS_ENABLED, true);
    Configuration httpConf = new Configuration(conf);
    httpConf.setBoolean(CommonConfigurationKeysPublic.HADOOP_PROMETHEUS_ENABLED, false);
    HttpServer2.Builder builder = new HttpServer2.Builder()
        .setName(WEB_APPLICATION)
        .addEndpoint(URI.create("http://" + NetUtils.getHostPortString(address)))
        .setFindPort(false)
        .setConf(httpConf);
    WebAuthentication.restrictAdministration(builder, httpConf, conf);
    HttpServer2 server = builder.build();
    // with Kerberos, SPNEGO (or, for WebHDFS, a delegation token) before the calls that act as a user
    WebAuthentication.install(server, conf, address.getHostName(), WebHdfsServlet.PATH_SPEC, FsckServlet.PATH,
        WebAuthentication.LOG_LEVEL_PATH);
    server.setAttribute(WebHdfsServlet.ATTRIBUTE, webHdfs);
    server.addServlet("webhdfs", WebHdfsServlet.PATH_SPEC, WebHdfsServlet.class);
    server.setAttribute(StatusServlet.ATTRIBUTE, status);
    server.addServlet("status", StatusServlet.PATH, StatusServlet.class);
    server.setAttribute(FsckServlet.ATTRIBUTE, fsck.servingWhen(webHdfs::serving));
    server.addServlet("fsck", FsckServlet.PATH, FsckServlet.class);
    PrometheusMetricsSink sink = prometheus ? new PrometheusMetricsSink() : null;
    if (sink != null) {
      server.setAttribute(PROMETHEUS_SINK_ATTRIBUTE, sink);
      server.addServlet("prometheus", "/prom", PrometheusServlet.class);
    }
    try {
      server.start();
    } catch (IOException e) {
      throw new IOException("Cannot start the namenode's HTTP server on " + NetUtils.getHostPortString(address)
          + " (canopy.namenode.http-address): " + e.getMessage(), e);
    }
    if (sink != null) {
      DefaultMetricsSystem.instance().register("prometheus-namenode-" + server.getConnectorAddress(0).getPort(),
          "Prometheus text of this namenode's metrics at /prom", sink);
    }
    return new NamenodeHttpServer(server, webHdfs);
  }

  /** WebHDFS and fsck serve from now on. */
  public void startServing() {
    webHdfs.startServing();
  }

  /** Whether {@code key} has a value other than core-default.xml's (Hadoop's default is off for /prom). */
  private static boolean setByUser(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    return sources != null && !java.util.Arrays.asList(sources).contains("core-default.xml");
  }

  /** Where the server listens. */
  public InetSocketAddress address() {
    return server.getConnectorAddress(0);
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop the namenode's HTTP server", e);
    }
  }
}

package io.canopy.namenode.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import io.canopy.namenode.metrics.ClusterStatusMonitor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.net.NetUtils;

/**
 * The namenode's HTTP server: Hadoop's {@code HttpServer2} (with its {@code /jmx}, {@code /prom}, {@code /conf},
 * {@code /stacks} and {@code /logLevel}), the status page at {@code /} (web application {@code webapps/canopy}) and
 * the status it shows at {@code /status.json}, WebHDFS at {@code /webhdfs/v1}, and {@code /fsck} for hdfs fsck.
 */
public final class NamenodeHttpServer implements AutoCloseable {
  /** The web application's name: its static files are the class path's {@code webapps/canopy}. */
  static final String WEB_APPLICATION = "canopy";

  private final HttpServer2 server;

  private NamenodeHttpServer(HttpServer2 server) {
    this.server = server;
  }

  /**
   * Starts serving on {@code address} (host:port; port 0 picks a free one). Hadoop's Prometheus endpoint
   * ({@code /prom}) is on unless {@code hadoop.prometheus.endpoint.enabled} says otherwise.
   */
  public static NamenodeHttpServer start(Configuration conf, InetSocketAddress address, WebHdfs webHdfs,
      ClusterStatusMonitor status) throws IOException {
    Configuration httpConf = new Configuration(conf);
    if (!setByUser(conf, CommonConfigurationKeysPublic.HADOOP_PROMETHEUS_ENABLED)) {
      httpConf.setBoolean(CommonConfigurationKeysPublic.HADOOP_PROMETHEUS_ENABLED, true);
    }
    HttpServer2 server = new HttpServer2.Builder()
        .setName(WEB_APPLICATION)
        .addEndpoint(URI.create("http://" + NetUtils.getHostPortString(address)))
        .setFindPort(false)
        .setConf(httpConf)
        .build();
    server.setAttribute(WebHdfsServlet.ATTRIBUTE, webHdfs);
    server.addServlet("webhdfs", WebHdfsServlet.PATH_SPEC, WebHdfsServlet.class);
    server.setAttribute(StatusServlet.ATTRIBUTE, status);
    server.addServlet("status", StatusServlet.PATH, StatusServlet.class);
    server.setAttribute(FsckServlet.ATTRIBUTE, new FsckServlet.Context(webHdfs.namenode(), conf));
    server.addServlet("fsck", FsckServlet.PATH, FsckServlet.class);
    try {
      server.start();
    } catch (IOException e) {
      throw new IOException("Cannot start the namenode's HTTP server on " + NetUtils.getHostPortString(address)
          + " (canopy.namenode.http-address): " + e.getMessage(), e);
    }
    return new NamenodeHttpServer(server);
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

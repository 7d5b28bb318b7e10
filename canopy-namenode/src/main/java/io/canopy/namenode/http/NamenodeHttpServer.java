package io.canopy.namenode.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.net.NetUtils;

/**
 * The namenode's HTTP server: Hadoop's {@code HttpServer2} (with its {@code /jmx}, {@code /conf}, {@code /stacks}
 * and {@code /logLevel}), the status page at {@code /} (web application {@code webapps/canopy}) and WebHDFS at
 * {@code /webhdfs/v1}.
 */
public final class NamenodeHttpServer implements AutoCloseable {
  /** The web application's name: its static files are the class path's {@code webapps/canopy}. */
  static final String WEB_APPLICATION = "canopy";

  private final HttpServer2 server;

  private NamenodeHttpServer(HttpServer2 server) {
    this.server = server;
  }

  /** Starts serving on {@code address} (host:port; port 0 picks a free one). */
  public static NamenodeHttpServer start(Configuration conf, InetSocketAddress address, WebHdfs webHdfs)
      throws IOException {
    HttpServer2 server = new HttpServer2.Builder()
        .setName(WEB_APPLICATION)
        .addEndpoint(URI.create("http://" + NetUtils.getHostPortString(address)))
        .setFindPort(false)
        .setConf(conf)
        .build();
    server.setAttribute(WebHdfsServlet.ATTRIBUTE, webHdfs);
    server.addServlet("webhdfs", WebHdfsServlet.PATH_SPEC, WebHdfsServlet.class);
    try {
      server.start();
    } catch (IOException e) {
      throw new IOException("Cannot start the namenode's HTTP server on " + NetUtils.getHostPortString(address)
          + " (canopy.namenode.http-address): " + e.getMessage(), e);
    }
    return new NamenodeHttpServer(server);
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

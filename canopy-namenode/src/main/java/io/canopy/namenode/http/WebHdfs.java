package io.canopy.namenode.http;

import io.canopy.namenode.audit.AuditedClientProtocol;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.rpc.DatabaseErrors;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.web.resources.DeleteOpParam;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.PostOpParam;
import org.apache.hadoop.hdfs.web.resources.PutOpParam;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's WebHDFS REST API ({@code /webhdfs/v1}), wire-compatible with HDFS's: the same operations, JSON,
 * redirects to datanodes and error documents. Each request runs as its user against this namenode's
 * {@code ClientProtocol}, so every permission check, lock and transaction is the RPC call's.
 */
public final class WebHdfs {
  private static final Logger LOG = LoggerFactory.getLogger(WebHdfs.class);

  private final Configuration conf;
  private final ClientProtocol namenode;
  private final HttpCallers callers;
  private final Map<HttpOpParam.Op, WebHdfsHandler> handlers = new HashMap<>();
  /** Set once the namenode has joined the group and serves RPC: before that, requests are asked to retry. */
  private volatile boolean serving;

  public WebHdfs(ClientProtocol namenode, Configuration conf, HttpCallers callers, BlockServices blocks,
      Supplier<InetSocketAddress> rpcAddress, Random random) {
    this.conf = conf;
    this.namenode = namenode;
    this.callers = callers;
    WebHdfsTokens tokens = new WebHdfsTokens(callers);
    DatanodeRedirects redirects = new DatanodeRedirects(namenode, blocks.placement(), blocks.registry(), rpcAddress,
        tokens);
    URI fileSystem = URI.create("hdfs://" + hostAndPort(rpcAddress.get()));
    handlers.putAll(new WebHdfsReads(namenode, conf, redirects, fileSystem).handlers());
    WebHdfsChanges changes = new WebHdfsChanges(namenode, conf, redirects, random);
    handlers.putAll(changes.puts());
    handlers.putAll(changes.posts());
    handlers.putAll(changes.deletes());
    handlers.putAll(tokens.handlers());
  }

  /** Who HTTP calls act as (fsck's too). */
  HttpCallers callers() {
    return callers;
  }

  /** From now on requests are served (the namenode has joined its group and serves RPC). */
  public void startServing() {
    serving = true;
  }

  /** Whether requests are served yet. */
  boolean serving() {
    return serving;
  }

  /** The namenode's calls WebHDFS makes (fsck walks the namespace through them too). */
  ClientProtocol namenode() {
    return namenode;
  }

  /** ip:port of an address: what a datanode connects back to (a host name might not resolve there). */
  static String hostAndPort(InetSocketAddress address) {
    return address.getAddress().getHostAddress() + ":" + address.getPort();
  }

  /** Answers one request of HTTP method {@code method}; every failure becomes HDFS's error document. */
  void serve(String method, HttpServletRequest httpRequest, HttpServletResponse httpResponse) throws IOException {
    WebHdfsAnswer answer;
    String path = httpRequest.getPathInfo();
    HttpOpParam.Op op = null;
    try {
      if (!serving) {
        throw new RetriableException("Namenode is in startup mode");
      }
      WebHdfsRequest request = WebHdfsRequest.of(httpRequest, callers);
      path = request.path();
      String named = request.value(HttpOpParam.NAME);
      op = operation(method, named == null ? HttpOpParam.DEFAULT : named);
      WebHdfsHandler handler = handlers.get(op);
      if (handler == null) {
        throw new UnsupportedOperationException(op + " is not supported");
      }
      AuditedClientProtocol.externalCall(request.remoteAddress(), "webhdfs");
      try {
        answer = request.user().doAs((PrivilegedExceptionAction<WebHdfsAnswer>) () -> handler.answer(request));
      } finally {
        AuditedClientProtocol.externalCallEnded();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer = WebHdfsAnswer.failure(new InterruptedIOException("interrupted: " + op + " " + path));
    } catch (Exception e) {
      answer = WebHdfsAnswer.failure(forClient(op, path, e));
    }
    answer.send(httpResponse);
  }

  /** The failure as the client may see it: database errors without the database's words, as over RPC. */
  private static Exception forClient(HttpOpParam.Op op, String path, Exception error) {
    Throwable answer = DatabaseErrors.involvesStore(error)
        ? DatabaseErrors.forClient(op == null ? "webhdfs" : op.toString(), new Object[] {path}, error) : error;
    if (answer instanceof Exception exception) {
      if (WebHdfsAnswer.statusOf(exception) == HttpServletResponse.SC_INTERNAL_SERVER_ERROR) {
        LOG.warn("WebHDFS {} {} failed", op, path, exception);
      }
      return exception;
    }
    return new IOException(answer.toString());
  }

  /** The request's operation among those of its HTTP method, parsed as HDFS parses it (absent: NULL). */
  private static HttpOpParam.Op operation(String method, String value) {
    Function<String, ? extends HttpOpParam<?>> parse = switch (method) {
      case "GET" -> GetOpParam::new;
      case "PUT" -> PutOpParam::new;
      case "POST" -> PostOpParam::new;
      case "DELETE" -> DeleteOpParam::new;
      default -> throw new UnsupportedOperationException("HTTP method " + method + " is not supported by WebHDFS");
    };
    return WebHdfsRequest.parse(HttpOpParam.NAME, value, parse).getValue();
  }
}

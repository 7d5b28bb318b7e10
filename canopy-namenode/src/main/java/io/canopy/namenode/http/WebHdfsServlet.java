package io.canopy.namenode.http;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Hands {@code /webhdfs/v1/*} requests to the namenode's {@link WebHdfs}, kept in the servlet context. */
public final class WebHdfsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  /** The servlet-context attribute holding the {@link WebHdfs} instance. */
  static final String ATTRIBUTE = "canopy.webhdfs";
  /** Where WebHDFS is served, as HDFS serves it. */
  static final String PATH_SPEC = "/webhdfs/v1/*";

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    webHdfs().serve("GET", request, response);
  }

  @Override
  protected void doPut(HttpServletRequest request, HttpServletResponse response) throws IOException {
    webHdfs().serve("PUT", request, response);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    webHdfs().serve("POST", request, response);
  }

  @Override
  protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
    webHdfs().serve("DELETE", request, response);
  }

  private WebHdfs webHdfs() {
    return (WebHdfs) getServletContext().getAttribute(ATTRIBUTE);
  }
}

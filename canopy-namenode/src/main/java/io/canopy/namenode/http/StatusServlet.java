package io.canopy.namenode.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.canopy.namenode.metrics.ClusterStatusMonitor;
import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /status.json}: this namenode's last {@code ClusterStatus} (the status page at {@code /} renders it); taken
 * from memory, never from the database.
 */
public final class StatusServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  static final String ATTRIBUTE = "canopy.status";
  static final String PATH = "/status.json";
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    ClusterStatusMonitor monitor = (ClusterStatusMonitor) getServletContext().getAttribute(ATTRIBUTE);
    byte[] body = JSON.writeValueAsBytes(monitor.current());
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType("application/json");
    response.setHeader("Cache-Control", "no-store");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}

package io.canopy.namenode.http;

import io.canopy.namenode.audit.AuditLog;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Date;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.http.HtmlQuoting;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /fsck}: what HDFS's {@code DFSck} ({@code hdfs fsck}) asks the namenode for: the report of
 * {@link NamespaceFsck} as plain text, written as the check goes, as the user the request names (DFSck sends
 * {@code ugi}, which HDFS's fsck servlet reads); the user's permissions limit what it can walk, as in HDFS. Only the
 * switches that read are served: -move, -delete and the block-level ones end in HDFS's FAILED line with the reason.
 */
public final class FsckServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(FsckServlet.class);
  static final String ATTRIBUTE = "canopy.fsck";
  static final String PATH = "/fsck";
  /** DFSck's switches that change the namespace or report on single blocks, which Canopy's fsck does not serve. */
  private static final List<String> UNSUPPORTED = List.of("move", "delete", "listcorruptfileblocks", "blockId",
      "replicate", "includeSnapshots", "maintenance", "storagepolicies", "upgradedomains", "replicadetails");

  /**
   * What the servlet needs of its namenode: its calls (not audited one by one: the check is one {@code fsck} line of
   * the audit log, as in HDFS, written to {@code audit}), its configuration, the network locations of its live
   * datanodes (fsck's datanode and rack counts, from memory: HDFS's fsck needs no superuser for them), and whether it
   * serves yet.
   */
  public record Context(ClientProtocol namenode, Configuration conf, HttpCallers callers,
      Supplier<List<String>> liveDatanodeLocations, BooleanSupplier serving, AuditLog audit) {
    /** This context, serving once {@code serving} says so. */
    Context servingWhen(BooleanSupplier when) {
      return new Context(namenode, conf, callers, liveDatanodeLocations, when, audit);
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    Context context = (Context) getServletContext().getAttribute(ATTRIBUTE);
    response.setContentType("text/plain; charset=utf-8");
    PrintWriter out = new PrintWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
    String path = request.getParameter("path") == null ? "/"
        : HtmlQuoting.unquoteHtmlChars(request.getParameter("path")); // HttpServer2's filter escaped it
    try {
      if (!context.serving().getAsBoolean()) {
        throw new IOException("Namenode is in startup mode");
      }
      for (String option : UNSUPPORTED) {
        if (request.getParameter(option) != null) {
          throw new UnsupportedOperationException("fsck -" + option + " is not supported by Canopy");
        }
      }
      UserGroupInformation user = context.callers().of(request, true); // with Kerberos, the SPNEGO user
      NamespaceFsck.Options options = new NamespaceFsck.Options(flag(request, "files"), flag(request, "blocks"),
          flag(request, "locations"), flag(request, "racks"), flag(request, "openforwrite"));
      short replication = (short) context.conf().getInt("dfs.replication", 3);
      if (context.audit().enabled()) {
        context.audit().log(new AuditLog.Event(true, user.toString(), JspHelper.getRemoteAddr(request), "fsck", path,
            null, null, null, null, null));
      }
      user.doAs((PrivilegedExceptionAction<Void>) () -> {
        new NamespaceFsck(context.namenode(), options, out, System::currentTimeMillis, replication)
            .check(path, user.getShortUserName(), JspHelper.getRemoteAddr(request), context.liveDatanodeLocations()
                .get());
        return null;
      });
    } catch (IOException | RuntimeException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("Fsck on path '{}' failed: {}", path, e.toString());
      out.println("FSCK ended at " + new Date());
      out.println(e.getMessage());
      out.print("\n\nFsck on path '" + path + "' FAILED");
    } finally {
      out.flush();
    }
  }

  private static boolean flag(HttpServletRequest request, String name) {
    return request.getParameter(name) != null;
  }
}

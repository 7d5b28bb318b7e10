package io.canopy.namenode.audit;

import static org.apache.commons.text.StringEscapeUtils.escapeJava;

import java.util.function.Consumer;
import org.apache.hadoop.fs.permission.FsPermission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS's audit log: one line per namespace operation a client asked for, in HDFS's format ({@code allowed=true
 * ugi=alice (auth:SIMPLE) ip=/127.0.0.1 cmd=create src=/a dst=null perm=alice:supergroup:rw-r--r-- proto=rpc},
 * tab-separated, paths escaped as Java strings), written at INFO to HDFS's logger name, so an HDFS operator's logging
 * configuration (an appender on {@code org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit}) routes it as it
 * did. Each namenode writes the operations it served. An operation refused for permissions is logged with
 * {@code allowed=false}; other failures are not logged, as in HDFS. Nothing is formatted while the logger is off.
 */
public final class AuditLog {
  /** HDFS's audit logger name ({@code FSNamesystem.AUDIT_LOG}). */
  public static final String LOGGER_NAME = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);
  private static final ThreadLocal<StringBuilder> LINE = ThreadLocal.withInitial(() -> new StringBuilder(256));

  /** What one audited call did. {@code perm} is the file's status after it when the call returned one, else null. */
  public record Event(boolean allowed, String ugi, String ip, String cmd, String src, String dst, String owner,
      String group, FsPermission permission, String proto) {
  }

  private final Consumer<String> sink;
  private final java.util.function.BooleanSupplier enabled;

  private AuditLog(Consumer<String> sink, java.util.function.BooleanSupplier enabled) {
    this.sink = sink;
    this.enabled = enabled;
  }

  /** The audit log written to HDFS's audit logger. */
  public static AuditLog toLogger() {
    return new AuditLog(LOG::info, LOG::isInfoEnabled);
  }

  /** An audit log handing each line to {@code sink} (tests). */
  public static AuditLog to(Consumer<String> sink) {
    return new AuditLog(sink, () -> true);
  }

  public boolean enabled() {
    return enabled.getAsBoolean();
  }

  public void log(Event event) {
    sink.accept(format(event));
  }

  /** The event as HDFS's default audit logger writes it. */
  static String format(Event event) {
    StringBuilder line = LINE.get();
    line.setLength(0);
    line.append("allowed=").append(event.allowed()).append('\t')
        .append("ugi=").append(event.ugi()).append('\t')
        .append("ip=").append(event.ip() == null ? "null" : "/" + event.ip()).append('\t')
        .append("cmd=").append(event.cmd()).append('\t')
        .append("src=").append(escapeJava(event.src())).append('\t')
        .append("dst=").append(escapeJava(event.dst())).append('\t');
    if (event.permission() == null) {
      line.append("perm=null");
    } else {
      line.append("perm=").append(event.owner()).append(':').append(event.group()).append(':')
          .append(event.permission());
    }
    line.append('\t').append("proto=").append(event.proto());
    return line.toString();
  }
}

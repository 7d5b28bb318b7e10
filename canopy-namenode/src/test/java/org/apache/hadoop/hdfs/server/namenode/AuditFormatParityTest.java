package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.namenode.audit.AuditLog;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

/**
 * Canopy's audit lines against the lines HDFS's own default audit logger ({@code FSNamesystemAuditLogger}, reachable
 * from this package) writes for the same events: byte for byte, escaped paths and the file status included.
 */
class AuditFormatParityTest {
  private static final class Lines extends AppenderSkeleton {
    final List<String> lines = new ArrayList<>();

    @Override
    protected void append(LoggingEvent event) {
      lines.add(event.getRenderedMessage());
    }

    @Override
    public void close() {
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @Test
  void canopyWritesWhatHdfsWrites() throws Exception {
    Logger audit = Logger.getLogger(AuditLog.LOGGER_NAME);
    Level before = audit.getLevel();
    Lines hdfs = new Lines();
    audit.setLevel(Level.INFO);
    audit.addAppender(hdfs);
    List<String> canopy = new ArrayList<>();
    AuditLog log = AuditLog.to(canopy::add);
    try {
      FSNamesystem.FSNamesystemAuditLogger hdfsLogger = new FSNamesystem.FSNamesystemAuditLogger();
      hdfsLogger.initialize(new Configuration(false));
      InetAddress loopback = InetAddress.getByName("127.0.0.1");
      FileStatus status = new FileStatus(10, false, 3, 1024, 0, 0, new FsPermission((short) 0640), "alice", "staff",
          new Path("/a"));
      hdfsLogger.logAuditEvent(true, "alice (auth:SIMPLE)", loopback, "create", "/dir/new\tfile \"é\"", null, status,
          null, null);
      log.log(new AuditLog.Event(true, "alice (auth:SIMPLE)", "127.0.0.1", "create", "/dir/new\tfile \"é\"", null,
          "alice", "staff", new FsPermission((short) 0640), null));
      hdfsLogger.logAuditEvent(false, "bob (auth:SIMPLE)", null, "rename (options=[OVERWRITE])", "/x", "/y\\z", null,
          null, null);
      log.log(new AuditLog.Event(false, "bob (auth:SIMPLE)", null, "rename (options=[OVERWRITE])", "/x", "/y\\z",
          null, null, null, null));
    } finally {
      audit.removeAppender(hdfs);
      audit.setLevel(before);
    }
    assertEquals(hdfs.lines, canopy);
    assertEquals(2, canopy.size());
  }
}

package io.canopy.namenode.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's RPC server sends a failed call's printed stack trace, causes included, to the client: every error of the
 * protocol adapter ({@link UnsupportedCallProxy}) that carries a store error must leave without the database's words.
 */
class DatabaseErrorsTest {
  private static final String SQL = "INSERT INTO inodes (partition_id, parent_id, name) failed (SQLSTATE 22021): "
      + "ERROR: invalid byte sequence for encoding \"UTF8\": 0x00";
  private static final FileNotFoundException MISSING = new FileNotFoundException("File does not exist: /missing");

  /** Stands in for the RPC server: its calls fail as the transaction runner passes store errors on. */
  public static final class FailingServer {
    public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
      throw new StoreException(SQL);
    }

    public void renewLease(String clientName, List<String> namespaces) throws IOException {
      TransientStoreException last = new TransientStoreException("SELECT ... FOR UPDATE failed (SQLSTATE 40P01): "
          + "ERROR: deadlock detected", null, false);
      throw new IOException("Operation renewLease did not complete after 10 attempts "
          + "(canopy.namenode.transaction.max-attempts); last error: " + last.getMessage(), last);
    }

    public HdfsFileStatus getFileInfo(String src) throws IOException {
      throw MISSING;
    }
  }

  private static final ClientProtocol PROTOCOL = UnsupportedCallProxy.create(ClientProtocol.class,
      new FailingServer());

  /** What Hadoop's RPC server would send: the printed stack trace, causes included. */
  private static String sent(Throwable error) {
    StringWriter printed = new StringWriter();
    error.printStackTrace(new PrintWriter(printed));
    return printed.toString();
  }

  @Test
  void aStoreErrorIsAnsweredNamingTheCallAndPathOnly() {
    IOException answer = assertThrows(IOException.class,
        () -> PROTOCOL.mkdirs("/a/b", FsPermission.getDirDefault(), true));
    assertEquals(IOException.class, answer.getClass(), "no Canopy class the client cannot load");
    assertTrue(answer.getMessage().startsWith("mkdirs /a/b failed in the metadata database; the details are in "
        + "the namenode's log (database error "), answer.getMessage());
    assertNull(answer.getCause());
    for (String databaseWords : List.of("SQLSTATE", "INSERT", "invalid byte sequence", "StoreException")) {
      assertFalse(sent(answer).contains(databaseWords), sent(answer));
    }
  }

  @Test
  void anErrorCausedByAStoreErrorKeepsItsClassAndItsOwnWords() {
    IOException answer = assertThrows(IOException.class, () -> PROTOCOL.renewLease("client", null));
    assertEquals(IOException.class, answer.getClass());
    assertTrue(answer.getMessage().startsWith("Operation renewLease did not complete after 10 attempts "
        + "(canopy.namenode.transaction.max-attempts); last error: <database error "), answer.getMessage());
    assertNull(answer.getCause());
    assertFalse(sent(answer).contains("SQLSTATE") || sent(answer).contains("deadlock"), sent(answer));
  }

  @Test
  void otherErrorsPassUnchanged() {
    assertSame(MISSING, assertThrows(FileNotFoundException.class, () -> PROTOCOL.getFileInfo("/missing")));
  }
}

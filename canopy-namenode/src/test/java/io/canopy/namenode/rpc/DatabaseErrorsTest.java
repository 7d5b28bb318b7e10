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
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.hdfs.protocol.proto.AclProtos.FsPermissionProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.ClientNamenodeProtocol;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.DeleteRequestProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.GetFileInfoRequestProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.GetFsReplicatedBlockStatsRequestProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.MkdirsRequestProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.RenewLeaseRequestProto;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.MethodDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's RPC server sends a failed call's printed stack trace, causes included, to the client: every error that
 * carries a store error must leave the client protocol's service ({@link DatabaseErrorBoundary} around Hadoop's
 * translator, as {@link RpcServerFactory} builds it) without the database's words.
 */
class DatabaseErrorsTest {
  private static final String SQL = "INSERT INTO inodes (partition_id, parent_id, name) failed (SQLSTATE 22021): "
      + "ERROR: invalid byte sequence for encoding \"UTF8\": 0x00";
  private static final FileNotFoundException MISSING = new FileNotFoundException("File does not exist: /missing");

  /** Stands in for the RPC server: its calls fail as the transaction runner passes store errors on. */
  private static Object fail(Method call) throws IOException {
    switch (call.getName()) {
      case "mkdirs" -> throw new StoreException(SQL);
      case "renewLease" -> {
        TransientStoreException last = new TransientStoreException("SELECT ... FOR UPDATE failed (SQLSTATE 40P01): "
            + "ERROR: deadlock detected", null, false);
        RetriableException exhausted = new RetriableException("Operation renewLease did not complete after 10 "
            + "attempts (canopy.namenode.transaction.max-attempts); last error: " + last.getMessage()
            + ". Retry the call.");
        exhausted.initCause(last);
        throw exhausted;
      }
      case "getFileInfo" -> throw MISSING;
      case "delete" -> throw new IllegalStateException("delete gave up", new StoreException(SQL));
      case "getReplicatedBlockStats" -> throw new StoreException(SQL);
      default -> throw new AssertionError("not part of this test: " + call.getName());
    }
  }

  private static final BlockingService SERVICE = service();

  private static BlockingService service() {
    ClientProtocol failing = (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
        new Class<?>[] {ClientProtocol.class}, (proxy, method, args) -> fail(method));
    try {
      return DatabaseErrorBoundary.around(ClientNamenodeProtocol.newReflectiveBlockingService(
          new ClientNamenodeProtocolServerSideTranslatorPB(failing)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Calls {@code method} on the service as the RPC server does; the error the client is sent. */
  private static Throwable answer(String method, Message request) {
    ServiceException failed = assertThrows(ServiceException.class, () -> SERVICE.callBlockingMethod(
        ClientNamenodeProtocol.getDescriptor().findMethodByName(method), null, request));
    return failed.getCause();
  }

  /** What Hadoop's RPC server would send: the printed stack trace, causes included. */
  private static String sent(Throwable error) {
    StringWriter printed = new StringWriter();
    error.printStackTrace(new PrintWriter(printed));
    return printed.toString();
  }

  @Test
  void aStoreErrorIsAnsweredNamingTheCallAndPathOnly() {
    Throwable answer = answer("mkdirs", MkdirsRequestProto.newBuilder().setSrc("/a/b")
        .setMasked(FsPermissionProto.newBuilder().setPerm(0755)).setCreateParent(true).build());
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
    Throwable answer = answer("renewLease", RenewLeaseRequestProto.newBuilder().setClientName("client").build());
    assertEquals(RetriableException.class, answer.getClass(), "the client's retry policy must still see it");
    assertTrue(answer.getMessage().startsWith("Operation renewLease did not complete after 10 attempts "
        + "(canopy.namenode.transaction.max-attempts); last error: <database error "), answer.getMessage());
    assertNull(answer.getCause());
    assertFalse(sent(answer).contains("SQLSTATE") || sent(answer).contains("deadlock"), sent(answer));
  }

  @Test
  void otherErrorsPassUnchanged() {
    assertSame(MISSING, answer("getFileInfo", GetFileInfoRequestProto.newBuilder().setSrc("/missing").build()));
  }

  @Test
  void anUncheckedErrorCausedByAStoreErrorLeavesWithoutIt() {
    IllegalStateException answer = assertThrows(IllegalStateException.class, () -> SERVICE.callBlockingMethod(
        ClientNamenodeProtocol.getDescriptor().findMethodByName("delete"), null,
        DeleteRequestProto.newBuilder().setSrc("/d").setRecursive(true).build()));
    assertEquals("delete gave up", answer.getMessage());
    assertNull(answer.getCause());
  }

  @Test
  void messagesNameTheClientProtocolCall() {
    Throwable answer = answer("getFsReplicatedBlockStats", GetFsReplicatedBlockStatsRequestProto.getDefaultInstance());
    assertTrue(answer.getMessage().startsWith("getReplicatedBlockStats failed in the metadata database"),
        answer.getMessage());
    Set<String> calls = new HashSet<>();
    for (Method call : ClientProtocol.class.getMethods()) {
      calls.add(call.getName());
    }
    for (MethodDescriptor method : ClientNamenodeProtocol.getDescriptor().getMethods()) {
      assertTrue(calls.contains(DatabaseErrorBoundary.callName(method)), method.getName() + " names no call");
    }
  }
}

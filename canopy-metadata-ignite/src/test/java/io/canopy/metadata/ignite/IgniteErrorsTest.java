package io.canopy.metadata.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import java.util.concurrent.CompletionException;
import org.apache.ignite.client.IgniteClientConnectionException;
import org.apache.ignite.lang.ErrorGroups;
import org.apache.ignite.lang.IgniteException;
import org.junit.jupiter.api.Test;

/** Which of Ignite's errors a retry of the whole operation may get past (design 020's node-kill findings). */
class IgniteErrorsTest {
  @Test
  void aLostNodeAndAPartitionWithoutPrimaryAreTransientAWrongStatementIsNot() {
    StoreException lost = IgniteErrors.translate("reading", new CompletionException(new IgniteClientConnectionException(
        ErrorGroups.Client.CONNECTION_ERR, "Channel is closed", null)), false);
    assertInstanceOf(TransientStoreException.class, lost, "one node's channel: the retry goes to another node");
    StoreException noPrimary = IgniteErrors.translate("scanning", new IgniteException(
        ErrorGroups.DistributionZones.ZONE_NOT_FOUND_ERR, "Failed to get the primary replica [tablePartitionId=21_part_22]"),
        false);
    assertInstanceOf(TransientStoreException.class, noPrimary);
    StoreException internal = IgniteErrors.translate("commit", new IgniteException(ErrorGroups.Common.INTERNAL_ERR,
        "Connection refused"), true);
    assertInstanceOf(TransientStoreException.class, internal);
    StoreException nodeLeft = IgniteErrors.translate("deleting rows of CANOPY_XATTRS", new IgniteException(
        ErrorGroups.Common.NODE_LEFT_ERR, "Node left the cluster. Node: db-2"), false);
    assertInstanceOf(TransientStoreException.class, nodeLeft, "the statement runs again on the nodes that remain");
    StoreException syntax = IgniteErrors.translate("scanning", new IgniteException(ErrorGroups.Sql.STMT_PARSE_ERR,
        "Failed to parse query"), false);
    assertFalse(syntax instanceof TransientStoreException, "a statement the engine refuses fails at once");
    assertTrue(syntax.getMessage().startsWith("scanning: "), syntax.getMessage());
  }

  @Test
  void aLockRefusedByWaitDieIsALockConflictWhoseCommitDidNotHappen() {
    for (boolean committing : new boolean[] {false, true}) {
      StoreException refused = IgniteErrors.translate("reading inode", new CompletionException(new IgniteException(
          ErrorGroups.Transactions.ACQUIRE_LOCK_ERR, "Failed to acquire a lock due to a possible deadlock")),
          committing);
      assertInstanceOf(LockConflictException.class, refused);
      assertFalse(((LockConflictException) refused).outcomeUnknown(), "the transaction was rolled back");
      assertTrue(refused.getMessage().startsWith("reading inode: "), refused.getMessage());
    }
  }

  @Test
  void aTransactionEndedUnderARequestIsTransient() {
    for (int code : new int[] {ErrorGroups.Transactions.TX_ALREADY_FINISHED_ERR,
        ErrorGroups.Transactions.TX_ALREADY_FINISHED_WITH_TIMEOUT_ERR}) {
      IgniteException ended = new IgniteException(code, "Transaction is already finished [tx=...]");
      assertInstanceOf(TransientStoreException.class, IgniteErrors.translate("listing directory 5", ended, false));
      assertTrue(IgniteErrors.endedTransaction(new CompletionException(ended)));
      StoreException atCommit = IgniteErrors.translate("commit", ended, true);
      assertFalse(((TransientStoreException) atCommit).outcomeUnknown(), "an ended transaction did not commit");
    }
    assertFalse(IgniteErrors.endedTransaction(new IgniteException(ErrorGroups.Transactions.ACQUIRE_LOCK_ERR, "lock")));
  }

  @Test
  void anErrorWithoutAMessageIsNamedByItsClass() {
    StoreException timedOut = IgniteErrors.translate("creating Canopy's tables",
        new CompletionException(new java.util.concurrent.TimeoutException()), false);
    assertEquals("creating Canopy's tables: java.util.concurrent.TimeoutException", timedOut.getMessage());
    StoreException wrapped = IgniteErrors.translate("formatting", new IllegalStateException(
        new java.util.concurrent.TimeoutException("DDL did not finish in 30 s")), false);
    assertTrue(wrapped.getMessage().contains("DDL did not finish in 30 s"), wrapped.getMessage());
  }
}

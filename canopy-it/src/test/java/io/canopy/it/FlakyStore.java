package io.canopy.it;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.ForwardingStore;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.StoreUnavailableException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store decorator injecting transient failures: the next N transaction starts fail (as a deadlock would, as a lock
 * refused by wait-die would, or as a database that does not answer would), or the next commits take effect but their
 * reply is lost (as a broken connection during commit would).
 */
final class FlakyStore extends ForwardingStore {
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger lostRepliesLeft = new AtomicInteger();
  private final AtomicInteger unansweredLeft = new AtomicInteger();
  private final AtomicInteger refusedLocksLeft = new AtomicInteger();

  FlakyStore(MetadataStore delegate) {
    super(delegate);
  }

  void failNext(int count) {
    failuresLeft.set(count);
  }

  /** The next {@code count} transaction starts fail as a database that does not answer would. */
  void leaveUnansweredNext(int count) {
    unansweredLeft.set(count);
  }

  /** The next {@code count} transaction starts fail as a lock refused by wait-die would. */
  void refuseLocksNext(int count) {
    refusedLocksLeft.set(count);
  }

  private void failIfInjected() throws StoreException {
    if (refusedLocksLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new LockConflictException("injected: a lock held by an older transaction", null);
    }
    if (unansweredLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new StoreUnavailableException("injected: the database did not answer", null, false);
    }
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new TransientStoreException("injected deadlock", null, false);
    }
  }

  /** The next {@code count} commits succeed in the database but report a broken connection. */
  void loseNextCommitReplies(int count) {
    lostRepliesLeft.set(count);
  }

  @Override
  public Transaction begin() throws StoreException {
    failIfInjected();
    Transaction real = delegate.begin();
    return (Transaction) java.lang.reflect.Proxy.newProxyInstance(Transaction.class.getClassLoader(),
        new Class<?>[] {Transaction.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(real, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("commit") && lostRepliesLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new TransientStoreException("injected: connection lost during commit", null, true);
          }
          return result;
        });
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    failIfInjected();
    return delegate.beginReadOnly();
  }






  @Override
  public String describe() {
    return "flaky " + delegate.describe();
  }

}

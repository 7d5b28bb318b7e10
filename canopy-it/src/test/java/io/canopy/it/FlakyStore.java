package io.canopy.it;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.IdRange;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.QueryResult;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.util.concurrent.atomic.AtomicInteger;

/** A store decorator that fails the next N transaction starts transiently, as a deadlock or lost link would. */
final class FlakyStore implements MetadataStore {
  private final MetadataStore delegate;
  private final AtomicInteger failuresLeft = new AtomicInteger();

  FlakyStore(MetadataStore delegate) {
    this.delegate = delegate;
  }

  void failNext(int count) {
    failuresLeft.set(count);
  }

  @Override
  public Transaction begin(long partitionHint) throws StoreException {
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new TransientStoreException("injected deadlock", null, false);
    }
    return delegate.begin(partitionHint);
  }

  @Override
  public IdRange allocateIds(IdKind kind, int count) throws StoreException {
    return delegate.allocateIds(kind, count);
  }

  @Override
  public NamespaceIdentity identity() throws StoreException {
    return delegate.identity();
  }

  @Override
  public void format(NamespaceIdentity identity, Inode root, boolean force) throws StoreException {
    delegate.format(identity, root, force);
  }

  @Override
  public QueryResult adminQuery(String query, int maxRows) throws StoreException {
    return delegate.adminQuery(query, maxRows);
  }

  @Override
  public String describe() {
    return "flaky " + delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}

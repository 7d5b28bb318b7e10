package io.canopy.metadata;

import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.util.Optional;

/**
 * A store that forwards every call to another: the base of decorators (the namenode's fault injection, the tests'
 * gated and flaky stores).
 */
public abstract class ForwardingStore implements MetadataStore {
  protected final MetadataStore delegate;

  protected ForwardingStore(MetadataStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public Transaction begin() throws StoreException {
    return delegate.begin();
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    return delegate.beginReadOnly();
  }

  @Override
  public int purgeExpiredRetryEntries(long nowMs, int limit) throws StoreException {
    return delegate.purgeExpiredRetryEntries(nowMs, limit);
  }

  @Override
  public IdRange allocateIds(IdKind kind, int count) throws StoreException {
    return delegate.allocateIds(kind, count);
  }

  @Override
  public BlockCensus blockCensus() {
    return delegate.blockCensus();
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
  public <T> Optional<T> capability(Class<T> type) {
    return delegate.capability(type);
  }

  @Override
  public boolean queuesLockRequests() {
    return delegate.queuesLockRequests();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}

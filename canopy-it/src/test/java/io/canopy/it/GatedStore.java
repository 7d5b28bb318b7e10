package io.canopy.it;

import io.canopy.metadata.ForwardingStore;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A store that holds an operation in the middle of its transaction: a read batch scanning the children of one
 * directory ({@link #gate}) waits, before it runs, until the test {@link #open}s the gate (at most a bound). The
 * operation keeps what it read so far meanwhile, as a slow one would.
 */
final class GatedStore extends ForwardingStore {
  private static final Duration MAX_WAIT = Duration.ofSeconds(60);
  private volatile long gatedDirectory = -1;
  private volatile CountDownLatch reached = new CountDownLatch(1);
  private volatile CountDownLatch opened = new CountDownLatch(1);

  GatedStore(MetadataStore delegate) {
    super(delegate);
  }

  /** The next batch reading the children of {@code directoryId} waits until {@link #open}. */
  void gate(long directoryId) {
    reached = new CountDownLatch(1);
    opened = new CountDownLatch(1);
    gatedDirectory = directoryId;
  }

  /** Waits until an operation stands at the gate. */
  boolean awaitReached() throws InterruptedException {
    return reached.await(MAX_WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  void open() {
    gatedDirectory = -1;
    opened.countDown();
  }

  @Override
  public Transaction begin() throws StoreException {
    return wrap(delegate.begin());
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    return wrap(delegate.beginReadOnly());
  }

  private Transaction wrap(Transaction real) {
    return (Transaction) Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class},
        (proxy, method, args) -> {
          Object result = call(real, method, args);
          return method.getName().equals("batch") ? wrapBatch((ReadBatch) result) : result;
        });
  }

  private ReadBatch wrapBatch(ReadBatch real) {
    boolean[] gated = {false};
    return (ReadBatch) Proxy.newProxyInstance(ReadBatch.class.getClassLoader(), new Class<?>[] {ReadBatch.class},
        (proxy, method, args) -> {
          String name = method.getName();
          if ((name.equals("children") && (long) args[1] == gatedDirectory)
              || (name.equals("spreadChildren") && (long) args[0] == gatedDirectory)) {
            gated[0] = true;
          }
          if (name.equals("execute") && gated[0]) {
            reached.countDown();
            if (!opened.await(MAX_WAIT.toSeconds(), TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never opened the gate");
            }
          }
          return call(real, method, args);
        });
  }

  private static Object call(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public String describe() {
    return "gated " + delegate.describe();
  }
}

package io.canopy.namenode.fault;

import io.canopy.metadata.ForwardingStore;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store decorator injecting random transient failures into transactions, as a real database does under load
 * or a flaky network: with probability {@code p} per statement (any table read, {@link ReadBatch#execute}) the
 * statement fails before it runs, as a deadlock or lock timeout would; with probability {@code p} per commit of a
 * read-write transaction the commit either fails before reaching the database (rolled back) or takes effect but
 * its reply is lost ({@link TransientStoreException#outcomeUnknown()}). Writes are buffered until commit, so they
 * are not statements. Injection is off until {@link #enable}; draws come from one seeded {@link Random} (the
 * sequence of draws is reproducible, which statement gets which draw depends on thread interleaving).
 */
public final class FaultInjectingStore extends ForwardingStore {
  /** Where a failure was injected. */
  public enum Fault {
    BEFORE_STATEMENT,
    BEFORE_COMMIT,
    AFTER_COMMIT
  }

  private final Random random;
  private volatile double probability;
  private final boolean loseReplies;
  private volatile boolean enabled;
  private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);

  /**
   * {@code loseReplies}: whether a commit fault may be a lost reply (else every commit fault happens before the
   * commit reaches the database).
   */
  public FaultInjectingStore(MetadataStore delegate, long seed, double probability, boolean loseReplies) {
    super(delegate);
    checkProbability(probability);
    this.random = new Random(seed);
    this.probability = probability;
    this.loseReplies = loseReplies;
    for (Fault fault : Fault.values()) {
      injected.put(fault, new AtomicLong());
    }
  }

  private static void checkProbability(double probability) {
    if (!(probability >= 0 && probability <= 1)) {
      throw new IllegalArgumentException("a fault probability is within [0, 1], got " + probability);
    }
  }

  /** Switches injection on or off (off while the cluster starts and while the test checks the outcome). */
  public void enable(boolean on) {
    enabled = on;
  }

  /** Changes the probability of a fault per statement and per commit. */
  public void setProbability(double probability) {
    checkProbability(probability);
    this.probability = probability;
  }

  public long injected(Fault fault) {
    return injected.get(fault).get();
  }

  public Map<Fault, Long> injectedCounts() {
    Map<Fault, Long> counts = new EnumMap<>(Fault.class);
    injected.forEach((fault, count) -> counts.put(fault, count.get()));
    return counts;
  }

  private boolean draw() {
    if (!enabled) {
      return false;
    }
    synchronized (random) {
      return random.nextDouble() < probability;
    }
  }

  private boolean coin() {
    synchronized (random) {
      return random.nextBoolean();
    }
  }

  private TransientStoreException inject(Fault fault, String what) {
    injected.get(fault).incrementAndGet();
    return switch (fault) {
      case BEFORE_STATEMENT -> new TransientStoreException("injected: deadlock detected in " + what, null, false);
      case BEFORE_COMMIT -> new TransientStoreException("injected: connection lost before commit", null, false);
      case AFTER_COMMIT -> new TransientStoreException("injected: committed but the reply was lost", null, true);
    };
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /** A statement: a method that talks to the store (the SPI declares it may throw StoreException). */
  private static boolean isStatement(Method method) {
    return Arrays.asList(method.getExceptionTypes()).contains(StoreException.class);
  }

  private Transaction wrap(Transaction real) {
    return proxy(Transaction.class, (proxy, method, args) -> {
      String name = method.getName();
      if (name.equals("commit")) {
        if (!real.readOnly() && draw()) {
          if (coin() || !loseReplies) {
            real.rollback();
            throw inject(Fault.BEFORE_COMMIT, "commit");
          }
          call(real, method, args);
          throw inject(Fault.AFTER_COMMIT, "commit");
        }
        return call(real, method, args);
      }
      Object result = call(real, method, args);
      if (name.equals("batch")) {
        return wrapBatch(real, (ReadBatch) result);
      }
      Class<?> type = method.getReturnType();
      if (type.isInterface() && type.getPackage() == Transaction.class.getPackage()) {
        return wrapTable(real, type, result); // one of the tables
      }
      return result;
    });
  }

  private ReadBatch wrapBatch(Transaction transaction, ReadBatch real) {
    return proxy(ReadBatch.class, (proxy, method, args) -> {
      if (method.getName().equals("execute") && draw()) {
        transaction.rollback(); // as PostgreSQL aborts a transaction whose statement failed
        throw inject(Fault.BEFORE_STATEMENT, "read batch");
      }
      return call(real, method, args);
    });
  }

  private <T> T wrapTable(Transaction transaction, Class<T> type, Object real) {
    return proxy(type, (proxy, method, args) -> {
      if (isStatement(method) && draw()) {
        transaction.rollback();
        throw inject(Fault.BEFORE_STATEMENT, type.getSimpleName() + "." + method.getName());
      }
      return call(real, method, args);
    });
  }

  @Override
  public Transaction begin() throws StoreException {
    return wrap(delegate.begin());
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    return wrap(delegate.beginReadOnly());
  }






  @Override
  public String describe() {
    return "fault-injecting " + delegate.describe();
  }

}

package io.canopy.it;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdfs.server.datanode.DataNodeFaultInjector;

/**
 * Holds the block recoveries of the datanodes in this JVM at their start (the DataNode's fault-injection hook at the
 * top of a recovery task) until {@link #open()}: a test can act while a recovery is known to be in a datanode's
 * hands. Other uses of the hook (block receivers) pass through. Install with {@link #install()}, always
 * {@link #close()}.
 */
final class RecoveryGate extends DataNodeFaultInjector implements AutoCloseable {
  /** Longest a recovery is held, so a failed test never leaves datanode threads stuck. */
  private static final long MAX_HOLD_SECONDS = 60;

  private final DataNodeFaultInjector previous = DataNodeFaultInjector.get();
  private final CountDownLatch opened = new CountDownLatch(1);
  private final AtomicInteger entered = new AtomicInteger();
  private final int held;

  private RecoveryGate(int held) {
    this.held = held;
  }

  /** Holds every recovery until opened. */
  static RecoveryGate install() {
    return install(Integer.MAX_VALUE);
  }

  /** Holds the first {@code held} recoveries until opened; later ones pass. */
  static RecoveryGate install(int held) {
    RecoveryGate gate = new RecoveryGate(held);
    DataNodeFaultInjector.set(gate);
    return gate;
  }

  @Override
  public void delay() {
    if (!calledByBlockRecovery()) {
      return;
    }
    if (entered.incrementAndGet() > held) {
      return;
    }
    try {
      opened.await(MAX_HOLD_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean calledByBlockRecovery() {
    for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
      if (frame.getClassName().startsWith("org.apache.hadoop.hdfs.server.datanode.BlockRecoveryWorker")) {
        return true;
      }
    }
    return false;
  }

  /** Recovery tasks that reached the gate so far. */
  int entered() {
    return entered.get();
  }

  /** Lets held and future recoveries run. */
  void open() {
    opened.countDown();
  }

  @Override
  public void close() {
    open();
    DataNodeFaultInjector.set(previous);
  }
}

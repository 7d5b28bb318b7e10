package io.canopy.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the selector's namenode list fresh: while calls are being made, at most once per interval, one refresh runs
 * on the executor (never on the caller's thread: a call's RPC must be the next one its thread makes) and asks the
 * namenodes in the selector's order until one answers. When none does, the current list stays.
 */
final class NamenodeListRefresher {
  private static final Logger LOG = LoggerFactory.getLogger(NamenodeListRefresher.class);

  private final String nameservice;
  private final NamenodeSelector selector;
  private final NamenodeListSource source;
  private final LongSupplier clock;
  private final long intervalMs;
  private final Executor executor;

  private boolean running;
  private boolean everStarted;
  private long lastStartMs;

  /** @param intervalMs 0 or less: never refresh */
  NamenodeListRefresher(String nameservice, NamenodeSelector selector, NamenodeListSource source, LongSupplier clock,
      long intervalMs, Executor executor) {
    this.nameservice = nameservice;
    this.selector = selector;
    this.source = source;
    this.clock = clock;
    this.intervalMs = intervalMs;
    this.executor = executor;
  }

  /** Starts a refresh when one is due (the first call, then once per interval) and none is running. */
  void maybeRefresh() {
    if (intervalMs <= 0) {
      return;
    }
    long now = clock.getAsLong();
    synchronized (this) {
      if (running || everStarted && now - lastStartMs < intervalMs) {
        return;
      }
      running = true;
      everStarted = true;
      lastStartMs = now;
    }
    try {
      executor.execute(this::refresh);
    } catch (RejectedExecutionException e) {
      finished(); // the provider is closing
    }
  }

  /** Asks namenodes until one gives its list; true when the selector got a new list. */
  boolean refresh() {
    try {
      List<String> failures = new ArrayList<>();
      for (String address : selector.askOrder()) {
        try {
          List<NamenodeList.Entry> entries = source.fetch(address);
          selector.update(entries);
          LOG.debug("Namenode {} of {} lists {} live namenodes", address, nameservice, entries.size());
          return true;
        } catch (IOException | RuntimeException e) {
          if (NamenodeSelector.meansNamenodeFailed(e)) {
            selector.failed(address);
          }
          failures.add(address + ": " + e.getMessage());
        }
      }
      LOG.warn("Cannot refresh the namenode list of {}: no namenode answered; still using {}. Failures: {}",
          nameservice, selector.describe(), failures);
      return false;
    } finally {
      finished();
    }
  }

  private synchronized void finished() {
    running = false;
  }
}

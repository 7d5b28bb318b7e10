package io.canopy.namenode.fault;

import io.canopy.metadata.MetadataStore;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Faults a test harness injects into a running namenode process (issue 20's nemesis, design 023), off unless
 * {@value #FILE_KEY} names a control file. The namenode then reads that file every {@value #POLL_MS} ms: a Java
 * properties file whose keys, each optionally prefixed with the namenode's RPC port ({@code PORT.key}, which wins
 * over the plain key), are
 *
 * <ul>
 *   <li>{@value #DAL_PROBABILITY}: the probability (0..1) that a statement or a commit of the metadata store fails
 *       transiently ({@link FaultInjectingStore}: a statement as a deadlock would, a commit before it reaches the
 *       database or after it took effect, its reply lost);</li>
 *   <li>{@value #CLOCK_OFFSET}: milliseconds added to this namenode's wall clock (leases, heartbeats' ages, pending
 *       transfers, block keys, subtree-operation ages, retry-cache expiry, times written into the metadata).</li>
 * </ul>
 *
 * A missing file or key means no fault. Every change is logged at WARN. A production namenode never sets the key;
 * it costs nothing then (no decorator, the system clock).
 */
public final class FaultControl {
  private static final Logger LOG = LoggerFactory.getLogger(FaultControl.class);
  /** The control file; unset (the default) turns fault injection off. */
  public static final String FILE_KEY = "canopy.namenode.fault-control.file";
  /** The seed of the injector's draws, mixed with the namenode's RPC port (the same draws for the same seed). */
  public static final String SEED_KEY = "canopy.namenode.fault-control.seed";
  public static final String DAL_PROBABILITY = "dal.fault.probability";
  public static final String CLOCK_OFFSET = "clock.offset.ms";
  static final long POLL_MS = 200;
  /** Offsets beyond a day are refused as typing mistakes. */
  static final long MAX_OFFSET_MS = TimeUnit.DAYS.toMillis(1);

  private final Path file;
  private final String portPrefix;
  private final long seed;
  private volatile long clockOffsetMs;
  private volatile double probability;
  private volatile FaultInjectingStore store;
  private String lastState = "";

  private FaultControl(Path file, int port, long seed) {
    this.file = file;
    this.portPrefix = port + ".";
    this.seed = seed;
  }

  /** The namenode's fault control from {@code conf}; null when off. {@code rpcPort} selects the PORT. keys. */
  public static FaultControl from(Configuration conf, int rpcPort) {
    String name = conf.getTrimmed(FILE_KEY, "");
    if (name.isEmpty()) {
      return null;
    }
    FaultControl control = new FaultControl(Path.of(name), rpcPort,
        conf.getLong(SEED_KEY, 0) * 1_000_003L + rpcPort); // each namenode its own draws
    control.poll();
    LOG.warn("Fault injection is enabled from {} ({}): for tests only", name, FILE_KEY);
    return control;
  }

  /** {@code store} behind the fault injector (which this control then drives). */
  public MetadataStore wrap(MetadataStore real) {
    FaultInjectingStore injecting = new FaultInjectingStore(real, seed, probability, true);
    injecting.enable(true);
    store = injecting;
    return injecting;
  }

  /** This namenode's wall clock: the system's plus the offset the file sets. */
  public long wallClockMs() {
    return System.currentTimeMillis() + clockOffsetMs;
  }

  /** Reads the file every {@value #POLL_MS} ms on {@code executor}. */
  public void pollIn(ScheduledExecutorService executor) {
    executor.scheduleWithFixedDelay(this::poll, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
  }

  /** What the faults are now, as logged. */
  public String state() {
    return String.format(java.util.Locale.ROOT, "%s=%s, %s=%d", DAL_PROBABILITY, probability, CLOCK_OFFSET,
        clockOffsetMs);
  }

  void poll() {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (NoSuchFileException e) {
      // no file: no fault
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("Cannot read the fault control file {} (faults unchanged): {}", file, e.toString());
      return;
    }
    try {
      double p = Double.parseDouble(value(properties, DAL_PROBABILITY, "0"));
      long offset = Long.parseLong(value(properties, CLOCK_OFFSET, "0"));
      if (!(p >= 0 && p <= 1) || Math.abs(offset) > MAX_OFFSET_MS) {
        throw new IllegalArgumentException(DAL_PROBABILITY + " must be within [0, 1] and |" + CLOCK_OFFSET
            + "| at most " + MAX_OFFSET_MS);
      }
      probability = p;
      clockOffsetMs = offset;
      FaultInjectingStore injecting = store;
      if (injecting != null) {
        injecting.setProbability(p);
      }
    } catch (IllegalArgumentException e) {
      LOG.warn("Fault control file {} is invalid (faults unchanged): {}", file, e.getMessage());
      return;
    }
    String now = state();
    synchronized (this) {
      if (!now.equals(lastState)) {
        FaultInjectingStore injecting = store;
        LOG.warn("Injected faults now: {}; store faults injected so far: {}", now,
            injecting == null ? "none (no store yet)" : injecting.injectedCounts());
        lastState = now;
      }
    }
  }

  private String value(Properties properties, String key, String otherwise) {
    String specific = properties.getProperty(portPrefix + key);
    return (specific != null ? specific : properties.getProperty(key, otherwise)).trim();
  }
}

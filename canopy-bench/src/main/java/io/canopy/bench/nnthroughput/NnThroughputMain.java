package io.canopy.bench.nnthroughput;

import io.canopy.bench.hdfs.ChildJvm;
import java.util.Properties;
import org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark;

/**
 * The process {@link NnThroughput} starts: Hadoop's {@code NNThroughputBenchmark} with the given arguments, its
 * results (logged at INFO by the benchmark) and warnings on stdout. Exits 0 when the benchmark returns, 1 when it
 * throws (the benchmark itself exits 255 on bad arguments), and by itself when the harness that started it exits.
 */
public final class NnThroughputMain {
  static final String BENCHMARK_CLASS = NNThroughputBenchmark.class.getName();
  /** The CPU line follows the end of the timed phase by far less; the clean-up after it takes longer. */
  private static final long REPORT_WAIT_MS = 10_000;

  private NnThroughputMain() {
  }

  public static void main(String[] args) {
    configureLogging();
    ChildJvm.exitWhenParentDies();
    TimedPhaseCpu cpu = measureServerCpu(args);
    int status = 0;
    try {
      NNThroughputBenchmark.main(args);
      if (cpu != null) {
        cpu.awaitReport(REPORT_WAIT_MS);
      }
    } catch (Throwable e) {
      System.out.println("NNThroughputBenchmark failed: " + e);
      e.printStackTrace(System.out);
      status = 1;
    }
    System.out.flush();
    // RPC client threads may linger; the run is over either way.
    System.exit(status);
  }

  /**
   * With {@value TimedPhaseCpu#ROOTS_PROPERTY} set: an appender on the benchmark's log that measures the servers'
   * CPU time over the timed phase of the {@code -op} operation; else null.
   */
  private static TimedPhaseCpu measureServerCpu(String[] args) {
    String roots = System.getProperty(TimedPhaseCpu.ROOTS_PROPERTY);
    int op = java.util.Arrays.asList(args).indexOf("-op");
    if (roots == null || op < 0 || op + 1 >= args.length) {
      return null;
    }
    TimedPhaseCpu cpu = new TimedPhaseCpu(args[op + 1], TimedPhaseCpu.parseRoots(roots), System.out);
    try {
      cpu.warmUp();
    } catch (java.io.IOException e) {
      System.out.println("canopy-bench: cannot read the servers' CPU time: " + e);
    }
    org.apache.log4j.Logger.getLogger(BENCHMARK_CLASS).addAppender(cpu);
    return cpu;
  }

  /** WARN and up on stdout, plus the benchmark's own INFO lines (they carry the results). */
  private static void configureLogging() {
    if (System.getProperty("log4j.configuration") != null) {
      return;
    }
    System.setProperty("log4j.defaultInitOverride", "true");
    Properties properties = new Properties();
    properties.setProperty("log4j.rootLogger", "WARN, stdout");
    properties.setProperty("log4j.appender.stdout", "org.apache.log4j.ConsoleAppender");
    properties.setProperty("log4j.appender.stdout.Target", "System.out");
    properties.setProperty("log4j.appender.stdout.layout", "org.apache.log4j.PatternLayout");
    properties.setProperty("log4j.appender.stdout.layout.ConversionPattern", "%d{ISO8601} %-5p [%t] %c{1}: %m%n");
    properties.setProperty("log4j.logger." + BENCHMARK_CLASS, "INFO");
    properties.setProperty("log4j.logger.org.apache.hadoop.util.NativeCodeLoader", "ERROR");
    org.apache.log4j.PropertyConfigurator.configure(properties);
  }
}

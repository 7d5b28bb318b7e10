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

  private NnThroughputMain() {
  }

  public static void main(String[] args) {
    configureLogging();
    ChildJvm.exitWhenParentDies();
    int status = 0;
    try {
      NNThroughputBenchmark.main(args);
    } catch (Throwable e) {
      System.out.println("NNThroughputBenchmark failed: " + e);
      e.printStackTrace(System.out);
      status = 1;
    }
    System.out.flush();
    // RPC client threads may linger; the run is over either way.
    System.exit(status);
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

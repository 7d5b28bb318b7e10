package io.canopy.namenode.tx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a namenode's per-operation counters to a text file (one line per operation type, replaced atomically), so
 * tools outside the process (the benchmark harness, operators) can read them:
 * {@code NAME operations=N roundTrips=N retries=N failures=N}.
 */
public final class MetricsFile {
  private MetricsFile() {
  }

  public static void write(Path file, OperationMetrics metrics) throws IOException {
    StringBuilder text = new StringBuilder("# canopy namenode operation counters since start\n");
    metrics.snapshot().forEach((name, s) -> text.append(name).append(" operations=").append(s.operations())
        .append(" roundTrips=").append(s.roundTrips()).append(" statements=").append(s.statements())
        .append(" retries=").append(s.retries()).append(" failures=").append(s.failures())
        .append(" retryCacheAnswers=").append(s.retryCacheAnswers()).append('\n'));
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temporary, text);
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Parses what {@link #write} wrote. */
  public static Map<String, OperationMetrics.Snapshot> read(Path file) throws IOException {
    Map<String, OperationMetrics.Snapshot> result = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.trim().split("\\s+");
      Map<String, Long> values = new LinkedHashMap<>();
      for (int i = 1; i < fields.length; i++) {
        String[] pair = fields[i].split("=", 2);
        values.put(pair[0], Long.parseLong(pair[1]));
      }
      result.put(fields[0], new OperationMetrics.Snapshot(values.getOrDefault("operations", 0L),
          values.getOrDefault("roundTrips", 0L), values.getOrDefault("statements", 0L),
          values.getOrDefault("retries", 0L), values.getOrDefault("failures", 0L),
          values.getOrDefault("retryCacheAnswers", 0L)));
    }
    return result;
  }
}

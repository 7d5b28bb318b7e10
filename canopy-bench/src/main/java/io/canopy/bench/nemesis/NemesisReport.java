package io.canopy.bench.nemesis;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a nemesis run found: the faults with their recovery times, the operations acknowledged and in doubt, every
 * violation (an acknowledged write lost, a phantom, bytes changed, a file unreadable after healing), {@code canopy
 * fsck}'s verdict, the linearizability verdicts of the shared histories, and latencies overall and during faults.
 *
 * @param recoveryNanos per fault (same order as {@code faults}): from its heal until a probe call succeeded, or -1
 */
public record NemesisReport(long seed, int clients, double minutes, List<ClusterFaults.Injected> faults,
    List<Long> recoveryNanos, long acknowledged, long unknown, List<String> violations, boolean fsckHealthy,
    String fsckSummary, int historiesChecked, int historiesLinearizable, int historiesUndecided,
    List<String> notLinearizable, long operations, double p50Ms, double p99Ms, long operationsDuringFaults,
    double p99DuringFaultsMs, double maxDuringFaultsMs) {

  public NemesisReport {
    faults = List.copyOf(faults);
    recoveryNanos = List.copyOf(recoveryNanos);
    violations = List.copyOf(violations);
    notLinearizable = List.copyOf(notLinearizable);
  }

  /** No acknowledged operation lost, no violation, fsck healthy, no history found non-linearizable, every fault healed. */
  public boolean clean() {
    return violations.isEmpty() && fsckHealthy && notLinearizable.isEmpty()
        && recoveryNanos.stream().allMatch(nanos -> nanos >= 0);
  }

  /** The report as a Markdown section (docs/reliability.md's format). */
  public String markdown() {
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "Seed %d, %d clients, %.1f minutes, %d faults; verdict: **%s**%n%n", seed,
        clients, minutes, faults.size(), clean() ? "clean" : "VIOLATIONS"));
    text.append("| fault | injected | healed in (mean s) | recovered | recovery after heal, mean (s) "
        + "| recovery after heal, max (s) |\n|---|---|---|---|---|---|\n");
    Map<FaultKind, List<Integer>> byKind = new EnumMap<>(FaultKind.class);
    for (int i = 0; i < faults.size(); i++) {
      byKind.computeIfAbsent(faults.get(i).kind(), kind -> new ArrayList<>()).add(i);
    }
    for (Map.Entry<FaultKind, List<Integer>> entry : byKind.entrySet()) {
      List<Long> recovered = entry.getValue().stream().map(recoveryNanos::get).filter(nanos -> nanos >= 0).toList();
      double heldSeconds = entry.getValue().stream().mapToLong(i -> faults.get(i).healedNanos()
          - faults.get(i).startNanos()).average().orElse(0) / 1e9;
      text.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %d | %.1f | %.1f |%n",
          entry.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' '), entry.getValue().size(), heldSeconds,
          recovered.size(), recovered.stream().mapToLong(Long::longValue).average().orElse(0) / 1e9,
          recovered.stream().mapToLong(Long::longValue).max().orElse(0) / 1e9));
    }
    text.append(String.format(Locale.ROOT, "%n| measure | value |%n|---|---|%n"
            + "| operations acknowledged | %d |%n| operations in doubt (no answer) | %d |%n"
            + "| acknowledged operations lost, phantoms, bytes changed | %d |%n"
            + "| canopy fsck | %s |%n| shared histories linearizable / undecided / not | %d / %d / %d |%n"
            + "| latency p50 / p99, all operations (ms) | %.0f / %.0f (%d operations) |%n"
            + "| latency p99 / max of operations overlapping a fault or its recovery (ms) | %.0f / %.0f (%d operations) |%n",
        acknowledged, unknown, violations.size(), fsckHealthy ? "HEALTHY" : "CORRUPT: " + fsckSummary,
        historiesLinearizable, historiesUndecided, notLinearizable.size(), p50Ms, p99Ms, operations,
        p99DuringFaultsMs, maxDuringFaultsMs, operationsDuringFaults));
    for (String violation : violations) {
      text.append("\n- violation: ").append(violation);
    }
    for (String history : notLinearizable) {
      text.append("\n- not linearizable: ").append(history);
    }
    return text.toString();
  }
}

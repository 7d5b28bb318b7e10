package io.canopy.namenode.check;

import java.util.List;

/**
 * What {@link MetadataInvariants} found in one snapshot of the metadata: its size, the invariants it broke (at most
 * {@link MetadataInvariants#MAX_LISTED} listed, the rest counted) and the housekeeping it waits for (warnings: states
 * the namenodes repair on their own, such as a subtree flag of a namenode that died).
 */
public record MetadataCheckReport(Counts counts, List<String> problems, long unlistedProblems, List<String> warnings,
    long unlistedWarnings) {
  /** The namespace's size as checked. */
  public record Counts(long directories, long files, long symlinks, long smallFiles, long openFiles, long blocks,
      long replicas, long leases, long quotaDirectories, long subtreeOperations) {
  }

  public MetadataCheckReport {
    problems = List.copyOf(problems);
    warnings = List.copyOf(warnings);
  }

  /** Whether no invariant is broken: warnings do not count. */
  public boolean healthy() {
    return problems.isEmpty() && unlistedProblems == 0;
  }

  public long problemCount() {
    return problems.size() + unlistedProblems;
  }

  public long warningCount() {
    return warnings.size() + unlistedWarnings;
  }
}

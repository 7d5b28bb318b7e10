package io.canopy.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one harness run measured, and where: the report is written from this alone. {@code mixes} ran with
 * the servers pinned (the first is the Spotify mix); {@code spotifyUnpinned} is the Spotify mix again with every
 * process free to use every CPU. {@code only} names the one section run ({@code --only}), or is null when every
 * section ran; with a section named ({@code small-files} or {@code subtree}), the other sections' fields are null.
 */
record BenchResults(BenchMode mode, long seed, MachineInfo machine, Instant started, Duration took, String pinning,
    Map<String, String> durability, Map<String, String> clusterSettings, int datanodes, String only,
    List<NnThroughputComparison.Row> nnThroughput, OpenDepthComparison.Outcome openDepth,
    List<MixComparison.Outcome> mixes, MixComparison.Outcome spotifyUnpinned, CreateWriteComparison.Outcome createWrite,
    SmallFilesComparison.Outcome smallFiles, SubtreeComparison.Outcome subtree, JfrProfile.Summary profile,
    String profileNote) {

  long failures() {
    long failures = (smallFiles == null ? 0 : smallFiles.failures()) + (subtree == null ? 0 : subtree.failures());
    if (only != null) {
      return failures;
    }
    failures += spotifyUnpinned.failures() + createWrite.failures();
    for (MixComparison.Outcome outcome : mixes) {
      failures += outcome.failures();
    }
    return failures;
  }
}

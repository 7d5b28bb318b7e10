package io.canopy.bench;

import io.canopy.bench.mix.MixRunner;
import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.OperationMix;
import io.canopy.cli.DaemonLauncher;
import io.canopy.cli.Role;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Runs every workload against Canopy and Apache HDFS in one run on this machine: both clusters are started once
 * with the same datanode count, replication, block size and log level, their servers pinned away from the load
 * generator (except for one more Spotify-mix comparison with nothing pinned); each measurement alternates which
 * system goes first and reads the servers' CPU time over its measured interval; then one extra, unmeasured Canopy
 * mix run is profiled with JFR.
 */
final class BenchHarness {
  private static final int DATANODES = 3;
  /** Settings both clusters get. NNThroughputBenchmark creates files with 16-byte blocks. */
  private static final Map<String, String> CLUSTER_SETTINGS = Map.of(
      "dfs.replication", "3",
      "dfs.namenode.fs-limits.min-block-size", "16");

  static final String UNPINNED_SPOTIFY = "Spotify mix, unpinned";
  /** Marks a directory as the harness's scratch space, which it may empty. */
  private static final String WORK_MARKER = ".canopy-bench-work";

  /** {@code --only} names: the sections that can run alone. */
  static final String SMALL_FILES = "small-files";
  static final String SUBTREE = "subtree";
  static final List<String> SECTIONS = List.of(SMALL_FILES, SUBTREE);

  private final BenchMode mode;
  private final Path work;
  private final long seed;
  private final Path repository;
  /** The one section to run, or null for every section. */
  private final String only;
  /** Whether Canopy's namenode was launched with Flight Recorder running (JfrProfile.launchOption). */
  private boolean launchedWithRecorder;

  BenchHarness(BenchMode mode, Path work, long seed, Path repository, String only) {
    if (only != null && !SECTIONS.contains(only)) {
      throw new IllegalArgumentException("unknown section '" + only + "': one of " + SECTIONS);
    }
    this.mode = mode;
    this.work = work;
    this.seed = seed;
    this.repository = repository;
    this.only = only;
  }

  /** What the sections other than small files and subtree measured (all null when a section runs alone). */
  private record OtherSections(List<NnThroughputComparison.Row> nn, OpenDepthComparison.Outcome openDepth,
      List<MixComparison.Outcome> mixes, CreateWriteComparison.Outcome createWrite,
      MixComparison.Outcome spotifyUnpinned, JfrProfile.Summary profile, String profileNote) {
    static final OtherSections NONE = new OtherSections(null, null, null, null, null, null, null);
  }

  BenchResults run(PrintWriter progress) throws Exception {
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    MachineInfo machine = MachineInfo.detect(repository); // before pinning narrows the CPUs
    // The smoke run proves the harness works (in CI, inside a test JVM that runs other tests): no pinning there.
    CpuPinning pinning = mode == BenchMode.SMOKE ? CpuPinning.disabled() : CpuPinning.detect();
    pinning.pinThisProcessToClients();
    resetWorkDirectory();
    progress.println("Benchmark mode " + mode.name() + ", seed " + seed + "; " + pinning.describe()
        + (only == null ? "" : "; only the section " + only));
    progress.println("Starting Canopy and HDFS with " + DATANODES + " datanodes each, settings " + CLUSTER_SETTINGS);
    progress.flush();
    Map<String, String> durability = new LinkedHashMap<>();
    OtherSections other = OtherSections.NONE;
    SmallFilesComparison.Outcome smallFiles;
    SubtreeComparison.Outcome subtree;
    // The profile that ends a whole run attaches Flight Recorder to namenode-1: started with it, the namenode keeps
    // its compiled code then (JfrProfile.launchOption).
    String jvmOptions = DaemonLauncher.jvmOptionsProperty(Role.Kind.NAMENODE);
    if (only == null && JfrProfile.available()) {
      try {
        System.setProperty(jvmOptions, JfrProfile.launchOption(work));
        launchedWithRecorder = true;
      } catch (IOException e) {
        progress.println("Canopy's namenode starts without Flight Recorder, its profile will be of recompiled code: "
            + e.getMessage());
      }
    }
    try (CanopySystem canopy = startCanopyThenForget(jvmOptions);
        HdfsSystem hdfs = HdfsSystem.start(work.resolve("hdfs"), DATANODES, CLUSTER_SETTINGS)) {
      pinning.pinServers(canopy.serverPids());
      pinning.pinServers(hdfs.serverPids());
      durability.put(canopy.name(), canopy.durability());
      durability.put(hdfs.name(), hdfs.durability());
      Configuration clientConf = new Configuration();
      CLUSTER_SETTINGS.forEach(clientConf::set);
      if (only == null) {
        other = beforeSmallFiles(canopy, hdfs, clientConf, pinning, progress);
      }
      smallFiles = runs(SMALL_FILES) ? smallFiles(canopy, hdfs, clientConf, progress) : null;
      subtree = runs(SUBTREE) ? subtree(canopy, hdfs, clientConf, progress) : null;
      if (only == null) {
        other = afterSmallFiles(other, canopy, hdfs, clientConf, pinning, progress);
      }
    }
    return new BenchResults(mode, seed, machine, started,
        Duration.ofNanos(System.nanoTime() - startNanos), pinning.describe(), durability, CLUSTER_SETTINGS,
        DATANODES, only, other.nn(), other.openDepth(), other.mixes(), other.spotifyUnpinned(), other.createWrite(),
        smallFiles, subtree, other.profile(), other.profileNote());
  }

  /** Whether {@code section} runs: every section runs without {@code --only}. */
  private boolean runs(String section) {
    return only == null || only.equals(section);
  }

  private SmallFilesComparison.Outcome smallFiles(CanopySystem canopy, HdfsSystem hdfs, Configuration clientConf,
      PrintWriter progress) throws IOException {
    progress.println("Small files, " + mode.smallFiles().threads() + " threads, 1 to 64 KB, then the crossover "
        + "curve to 1 MB:");
    long start = System.nanoTime();
    SmallFilesComparison.Outcome outcome = SmallFilesComparison.run(mode, canopy, hdfs, clientConf, seed, progress);
    progress.printf(Locale.ROOT, "Small files took %.1f s%n", (System.nanoTime() - start) / 1e9);
    return outcome;
  }

  private SubtreeComparison.Outcome subtree(CanopySystem canopy, HdfsSystem hdfs, Configuration clientConf,
      PrintWriter progress) throws IOException {
    BenchMode.Subtree settings = mode.subtree();
    progress.printf(Locale.ROOT, "Subtree operations: mv and rm -r of %s files, then %d clients in the parent and a "
        + "Spotify mix of %d threads elsewhere during the rm -r of %,d files:%n", settings.timedFiles(),
        settings.workers(), settings.mixThreads(), settings.disturbanceFiles());
    long start = System.nanoTime();
    SubtreeComparison.Outcome outcome = SubtreeComparison.run(mode, canopy, hdfs, clientConf, seed, progress);
    progress.printf(Locale.ROOT, "Subtree operations took %.1f s%n", (System.nanoTime() - start) / 1e9);
    return outcome;
  }

  /** NNThroughputBenchmark, open at depth, the mixes and create + write, servers pinned. */
  private OtherSections beforeSmallFiles(CanopySystem canopy, HdfsSystem hdfs, Configuration clientConf,
      CpuPinning pinning, PrintWriter progress) throws Exception {
    List<SystemUnderTest> systems = List.of(canopy, hdfs);
    progress.println("NNThroughputBenchmark (remote mode), " + mode.repetitions() + " run(s) per operation:");
    List<NnThroughputComparison.Row> nn = NnThroughputComparison.run(mode, systems, CLUSTER_SETTINGS,
        work.resolve("nnthroughput"), pinning, progress);
    progress.println("Open at depth " + OpenDepthComparison.SHALLOW + " and " + OpenDepthComparison.DEEP + ":");
    OpenDepthComparison.Outcome openDepth = OpenDepthComparison.run(mode, systems, clientConf, seed, progress);
    List<MixComparison.Outcome> mixes = new ArrayList<>();
    for (Map.Entry<String, OperationMix> workload : workloads().entrySet()) {
      MixSettings settings = MixComparison.settings(mode, workload.getValue(), seed);
      progress.println(workload.getKey() + ": " + workload.getValue().describe());
      mixes.add(MixComparison.run(workload.getKey(), settings, mode, canopy, hdfs, clientConf, progress));
    }
    progress.println("Create + write 4 KB + close, " + mode.writeThreads() + " threads:");
    CreateWriteComparison.Outcome createWrite = CreateWriteComparison.run(mode, systems, clientConf, seed, progress);
    return new OtherSections(nn, openDepth, mixes, createWrite, null, null, null);
  }

  /** The unpinned Spotify mix and the profile, which end the run. */
  private OtherSections afterSmallFiles(OtherSections before, CanopySystem canopy, HdfsSystem hdfs,
      Configuration clientConf, CpuPinning pinning, PrintWriter progress) throws IOException {
    MixComparison.Outcome spotifyUnpinned = unpinnedSpotify(pinning, canopy, hdfs, clientConf, progress);
    JfrProfile.Summary profile = null;
    String profileNote;
    if (JfrProfile.available()) {
      profile = profile(canopy, clientConf, progress);
      profileNote = "one extra Spotify-mix run of " + mode.profileSeconds() + " s on Canopy (not counted above), "
          + "JFR 'profile' settings on namenode-1, started and stopped with jcmd"
          + (launchedWithRecorder ? " (the namenode was launched with an empty recording running, so that the "
              + "attach left its compiled code alone)" : " (the namenode was launched without Flight Recorder: the "
              + "attach made its compiled code not entrant, and the profile includes its recompilation)");
    } else {
      profileNote = "not profiled: jcmd is not on the PATH";
    }
    return new OtherSections(before.nn(), before.openDepth(), before.mixes(), before.createWrite(), spotifyUnpinned,
        profile, profileNote);
  }

  static Map<String, OperationMix> workloads() {
    Map<String, OperationMix> workloads = new LinkedHashMap<>();
    workloads.put("Spotify mix", OperationMix.spotify());
    // The write-intensive variant of docs/references.md [HopsFS-1M] s.V-A: creates at 20%, taken from the file reads.
    workloads.put("Write-heavy mix", OperationMix.writeHeavyFromReads());
    return workloads;
  }

  /**
   * The Spotify mix with servers and clients free to use every CPU, as a user runs them; pinned again afterwards
   * (PostgreSQL backends started meanwhile included).
   */
  private MixComparison.Outcome unpinnedSpotify(CpuPinning pinning, CanopySystem canopy, HdfsSystem hdfs,
      Configuration conf, PrintWriter progress) throws IOException {
    progress.println(UNPINNED_SPOTIFY + ": every server and the load generator on every CPU");
    List<Long> servers = new ArrayList<>(canopy.serverPids());
    servers.addAll(hdfs.serverPids());
    pinning.unpin(servers);
    try {
      return MixComparison.run(UNPINNED_SPOTIFY, MixComparison.settings(mode, OperationMix.spotify(), seed), mode,
          canopy, hdfs, conf, progress);
    } finally {
      pinning.pinServers(canopy.serverPids());
      pinning.pinServers(hdfs.serverPids());
      pinning.pinThisProcessToClients();
    }
  }

  private JfrProfile.Summary profile(CanopySystem canopy, Configuration conf, PrintWriter progress)
      throws IOException {
    long pid = canopy.nameNodePid();
    MixSettings settings = MixComparison.settings(mode, OperationMix.spotify(), seed)
        .withWarmup(Duration.ofSeconds(1)).withDuration(Duration.ofSeconds(mode.profileSeconds()));
    progress.printf(Locale.ROOT, "Profiling Canopy's namenode (pid %d) during a %d s Spotify-mix run%n", pid,
        mode.profileSeconds());
    progress.flush();
    io.canopy.bench.mix.MixNamespace namespace = MixComparison.loadNamespace(canopy, settings, conf, progress);
    JfrProfile.start(pid);
    try {
      new MixRunner(URI.create(canopy.uri()), conf, settings).run(namespace, progress);
    } finally {
      JfrProfile.stop(pid, work.resolve("canopy-namenode.jfr"));
    }
    return JfrProfile.summarize(work.resolve("canopy-namenode.jfr"));
  }

  /** Starts Canopy, then clears {@code property} so that no later cluster of this JVM gets its options. */
  private CanopySystem startCanopyThenForget(String property) throws IOException {
    try {
      return CanopySystem.start(work.resolve("canopy"), DATANODES, CLUSTER_SETTINGS);
    } finally {
      System.clearProperty(property);
    }
  }

  private void resetWorkDirectory() throws IOException {
    if (Files.isDirectory(work) && !Files.exists(work.resolve(WORK_MARKER))) {
      try (var entries = Files.list(work)) {
        if (entries.findAny().isPresent()) {
          throw new IOException("The work directory " + work + " is not empty and was not made by canopy bench; "
              + "name an empty or new directory with --work (it is emptied on every run)");
        }
      }
    }
    if (Files.isDirectory(work.resolve("canopy"))) {
      // a previous run that died may have left its cluster running: stop it before deleting its directory
      io.canopy.cli.CanopyCli.newCommandLine().setOut(new PrintWriter(java.io.Writer.nullWriter()))
          .setErr(new PrintWriter(java.io.Writer.nullWriter())).execute("down", "--dir", work.resolve("canopy")
              .toString());
    }
    if (Files.exists(work)) {
      try (var paths = Files.walk(work)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
    Files.createDirectories(work);
    Files.createFile(work.resolve(WORK_MARKER));
  }
}

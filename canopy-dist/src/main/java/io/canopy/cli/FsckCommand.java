package io.canopy.cli;

import io.canopy.namenode.check.MetadataCheckReport;
import io.canopy.namenode.check.MetadataInvariants;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "fsck", mixinStandardHelpOptions = true,
    description = {"Check the invariants of the metadata in the database.",
        "Reads the metadata of the cluster in DIR from one consistent snapshot (the cluster may be running) and "
        + "checks what the namenodes rely on: every inode reachable from the root once, unique names, children "
        + "counts, partition keys, blocks only of files and as long as their files, replicas only of existing "
        + "blocks, small files stored once, leases for exactly the open files, quota usage equal to a recount, "
        + "subtree flags with their operations, and id counters ahead of every id in use. Each problem is one line "
        + "naming the path or row.",
        "Warnings name what the namenodes repair on their own (a subtree operation of a namenode that died, a lease "
        + "past its hard limit still holding files); they do not make the metadata CORRUPT.",
        "This checks the database; `canopy hdfs fsck /` asks a namenode for HDFS's report on files, blocks and "
        + "replication."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:HEALTHY (warnings allowed)", "1:CORRUPT, or the check could not run (the message says why)",
        "2:invalid arguments"})
public final class FsckCommand implements Callable<Integer> {
  @Mixin
  ClusterDirOption dirOption;

  @Option(names = "--lease-hard-limit-sec", paramLabel = "S", defaultValue = "" + DFSConfigKeys
      .DFS_LEASE_HARDLIMIT_DEFAULT, description = "A lease not renewed for S seconds that still holds files is "
      + "warned about (default: ${DEFAULT-VALUE}, HDFS's dfs.namenode.lease-hard-limit-sec).")
  long leaseHardLimitSec;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (leaseHardLimitSec < 1) {
      throw new CliException(2, "--lease-hard-limit-sec must be positive, got " + leaseHardLimitSec);
    }
    ClusterLayout layout = dirOption.layout();
    layout.requireCluster();
    PrintWriter out = spec.commandLine().getOut();
    long nowMs = System.currentTimeMillis();
    out.println("Checking the metadata of " + layout.root() + " at " + Instant.ofEpochMilli(nowMs));
    out.flush();
    long started = System.nanoTime();
    ProgressLine progress = ProgressLine.forConsole(out);
    MetadataCheckReport report = DatabaseSession.withStore(layout, MetadataAccess.Login.READER,
        spec.commandLine().getErr(), store -> MetadataInvariants.check(store, nowMs,
            TimeUnit.SECONDS.toMillis(leaseHardLimitSec), progress::show));
    progress.clear();
    print(out, report, (System.nanoTime() - started) / 1_000_000);
    out.flush();
    return report.healthy() ? 0 : 1;
  }

  static void print(PrintWriter out, MetadataCheckReport report, long elapsedMs) {
    for (String problem : report.problems()) {
      out.println("PROBLEM: " + problem);
    }
    if (report.unlistedProblems() > 0) {
      out.println("PROBLEM: ... and " + report.unlistedProblems() + " more");
    }
    for (String warning : report.warnings()) {
      out.println("WARNING: " + warning);
    }
    if (report.unlistedWarnings() > 0) {
      out.println("WARNING: ... and " + report.unlistedWarnings() + " more");
    }
    MetadataCheckReport.Counts counts = report.counts();
    out.println();
    out.println("Status: " + (report.healthy() ? "HEALTHY" : "CORRUPT"));
    out.println(" Total dirs:\t" + counts.directories());
    out.println(" Total files:\t" + counts.files() + " (in the database: " + counts.smallFiles()
        + ", open for write: " + counts.openFiles() + ")");
    out.println(" Total symlinks:\t" + counts.symlinks());
    out.println(" Total blocks on datanodes:\t" + counts.blocks() + " (replicas recorded: " + counts.replicas() + ")");
    out.println(" Leases:\t" + counts.leases());
    out.println(" Directories with quotas:\t" + counts.quotaDirectories());
    out.println(" Subtree operations running:\t" + counts.subtreeOperations());
    out.println(" Problems:\t" + report.problemCount());
    out.println(" Warnings:\t" + report.warningCount());
    out.println("Checked in " + elapsedMs + " ms");
    out.println();
    out.println("The metadata in the database is " + (report.healthy() ? "HEALTHY" : "CORRUPT"));
  }
}

package io.canopy.bench.nemesis;

import io.canopy.cli.ClusterLayout;
import io.canopy.cli.ClusterProperties;
import io.canopy.cli.Daemons;
import io.canopy.cli.Role;
import io.canopy.namenode.fault.FaultControl;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Injects one {@link FaultKind} at a time into the processes of a {@code canopy up} cluster, with signals (SIGKILL,
 * SIGSTOP and SIGCONT to the process and everything it started: PostgreSQL's server processes too), holds it and heals
 * it (SIGCONT, or {@code canopy up --restart} for what was killed); {@link #ensureAllRunning} then starts whatever
 * left meanwhile (a paused namenode that was evicted may have). Transient store faults and clock offsets go through
 * the namenodes' fault control file ({@link FaultControl}), which the cluster is started with.
 */
public final class ClusterFaults {
  /** How long each kind of fault lasts before it is healed. */
  static Duration hold(FaultKind kind) {
    return switch (kind) {
      case NAMENODE_KILL, DATANODES_KILL -> Duration.ofSeconds(3);
      case NAMENODE_PAUSE -> Duration.ofSeconds(8);
      case DATABASE_PAUSE -> Duration.ofSeconds(5);
      case DATABASE_RESTART -> Duration.ZERO;
      case DAL_FAULTS -> Duration.ofSeconds(8);
      case CLOCK_OFFSET -> Duration.ofSeconds(10);
    };
  }

  /** The probability of a transient store fault per statement and per commit during a {@link FaultKind#DAL_FAULTS}. */
  public static final double DAL_FAULT_PROBABILITY = 0.05;
  /** The largest clock offset of a {@link FaultKind#CLOCK_OFFSET}, either way. */
  static final long MAX_CLOCK_OFFSET_MS = 90_000;
  static final long MIN_CLOCK_OFFSET_MS = 5_000;

  /** The namenodes' fault control file of a nemesis cluster in {@code dir} (canopy.namenode.fault-control.file). */
  static Path controlFile(Path dir) {
    return dir.resolve("nemesis-faults.properties");
  }

  /**
   * One injected fault: what, on which process, and when it started and was healed (nanos of the run's clock).
   */
  public record Injected(FaultKind kind, String target, long startNanos, long healedNanos) {
  }

  private final ClusterCommands commands;
  private final ClusterLayout layout;
  private final LongSupplier nanos;

  ClusterFaults(ClusterCommands commands, LongSupplier nanos) {
    this.commands = commands;
    this.layout = new ClusterLayout(commands.dir());
    this.nanos = nanos;
  }

  private ClusterProperties cluster() throws IOException {
    return ClusterProperties.load(layout.propertiesFile())
        .orElseThrow(() -> new IOException("no cluster in " + layout.root()));
  }

  private ProcessHandle process(Role role) throws IOException {
    return new Daemons(layout).running(role)
        .orElseThrow(() -> new IOException(role + " of " + layout.root() + " is not running"));
  }

  Injected inject(FaultKind kind, Random random) throws IOException, InterruptedException {
    ClusterProperties cluster = cluster();
    long start = nanos.getAsLong();
    Duration hold = hold(kind);
    String target;
    switch (kind) {
      case NAMENODE_KILL -> {
        Role namenode = Role.namenode(1 + random.nextInt(cluster.namenodes()));
        target = namenode.toString();
        kill(process(namenode));
        Thread.sleep(hold.toMillis());
        commands.succeed("up", "--restart");
      }
      case NAMENODE_PAUSE -> {
        Role namenode = Role.namenode(1 + random.nextInt(cluster.namenodes()));
        target = namenode.toString();
        ProcessHandle process = process(namenode);
        signal("STOP", List.of(process));
        Thread.sleep(hold.toMillis());
        signal("CONT", List.of(process));
      }
      case DATANODES_KILL -> {
        target = "the datanodes' process";
        kill(process(Role.datanode(1)));
        Thread.sleep(hold.toMillis());
        commands.succeed("up", "--restart");
      }
      case DATABASE_PAUSE -> {
        target = "PostgreSQL";
        List<ProcessHandle> tree = tree(process(Role.DATABASE));
        signal("STOP", tree);
        Thread.sleep(hold.toMillis());
        signal("CONT", tree);
      }
      case DATABASE_RESTART -> {
        target = "PostgreSQL";
        for (ProcessHandle process : tree(process(Role.DATABASE))) {
          kill(process);
        }
        commands.succeed("up", "--restart");
      }
      case DAL_FAULTS -> {
        target = "every namenode's metadata store (p=" + DAL_FAULT_PROBABILITY + ")";
        writeControl(FaultControl.DAL_PROBABILITY + "=" + DAL_FAULT_PROBABILITY + "\n");
        Thread.sleep(hold.toMillis());
        writeControl("");
      }
      case CLOCK_OFFSET -> {
        Role namenode = Role.namenode(1 + random.nextInt(cluster.namenodes()));
        long offset = (MIN_CLOCK_OFFSET_MS + (long) (random.nextDouble() * (MAX_CLOCK_OFFSET_MS
            - MIN_CLOCK_OFFSET_MS))) * (random.nextBoolean() ? 1 : -1);
        writeControl(cluster.port(namenode) + "." + FaultControl.CLOCK_OFFSET + "=" + offset + "\n");
        long shift = modificationTimeShift(cluster.port(namenode));
        target = String.format(java.util.Locale.ROOT, "%s (clock %+.1f s; a file it created: mtime %+.1f s)",
            namenode, offset / 1000.0, shift / 1000.0);
        if (Math.abs(shift - offset) > CLOCK_TOLERANCE_MS) {
          throw new IOException(namenode + " was told to move its clock by " + offset + " ms, but stamps a file it "
              + "creates " + shift + " ms off: the offset did not reach the namenode's clock");
        }
        Thread.sleep(hold.toMillis());
        writeControl("");
      }
      default -> throw new IllegalArgumentException(kind.toString());
    }
    return new Injected(kind, target, start, nanos.getAsLong());
  }

  /**
   * Replaces the namenodes' fault control file (written beside and moved over it, so a namenode reads all of it or
   * the old one), then waits two of their polls.
   */
  private void writeControl(String content) throws IOException, InterruptedException {
    Path file = controlFile(layout.root());
    Path fresh = file.resolveSibling(file.getFileName() + ".new");
    Files.writeString(fresh, "# written by the nemesis (ClusterFaults)\n" + content);
    Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Thread.sleep(CONTROL_PICKUP_MS);
  }

  /** How far a file's modification time may be from the clock offset asked for (the call's own length, rounding). */
  static final long CLOCK_TOLERANCE_MS = 5_000;

  /**
   * How far from this machine's clock the namenode at {@code port} stamps a file it creates (through it alone, with
   * the stock client): the evidence that a clock offset reached the times it writes into the metadata.
   */
  private long modificationTimeShift(int port) throws IOException {
    Configuration conf = new Configuration(NemesisRun.clientConfiguration(layout.root()));
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    org.apache.hadoop.fs.Path probe = new org.apache.hadoop.fs.Path("/probe/clock-" + nanos.getAsLong());
    try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://127.0.0.1:" + port), conf)) {
      long before = System.currentTimeMillis();
      fs.create(probe).close();
      long after = System.currentTimeMillis();
      long shift = fs.getFileStatus(probe).getModificationTime() - (before + after) / 2;
      fs.delete(probe, false);
      return shift;
    }
  }

  /** Two polls of the namenodes' fault control. */
  private static final long CONTROL_PICKUP_MS = 500;

  /** Starts again whatever process of the cluster does not run (a namenode that left after an eviction). */
  void ensureAllRunning() throws IOException, InterruptedException {
    Daemons daemons = new Daemons(layout);
    // a namenode resumed after an eviction may take a few seconds to notice and leave: look twice
    for (int look = 0; look < 2; look++) {
      boolean allRunning = true;
      for (Role role : cluster().roles()) {
        allRunning &= daemons.running(role).isPresent();
      }
      if (!allRunning) {
        commands.succeed("up", "--restart");
        return;
      }
      Thread.sleep(2_000);
    }
  }

  /** The process and every process it started, children first. */
  private static List<ProcessHandle> tree(ProcessHandle root) {
    List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
    java.util.Collections.reverse(all);
    all.add(root);
    return all;
  }

  private static void kill(ProcessHandle process) throws IOException {
    process.destroyForcibly();
    if (!process.onExit().thenApply(exited -> true).completeOnTimeout(false, 10, TimeUnit.SECONDS).join()) {
      throw new IOException("process " + process.pid() + " survived SIGKILL for 10 s");
    }
  }

  private static void signal(String signal, List<ProcessHandle> processes) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    processes.forEach(process -> command.add(Long.toString(process.pid())));
    Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
    // a process of the tree that ended meanwhile (a database backend) makes kill answer 1: the others got the signal
    if (!kill.waitFor(10, TimeUnit.SECONDS)) {
      kill.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish in 10 s");
    }
  }
}

package io.canopy.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the load generator and the servers off each other's cores: servers on the first half of the CPUs, this
 * JVM and the processes it starts for load on the second half (with {@code taskset}, when present and there are at
 * least two CPUs). On two cores: one core for the systems under test, one for the clients.
 */
public final class CpuPinning {
  private final boolean enabled;
  private final String serverCpus;
  private final String clientCpus;
  /** Every CPU: where an unpinned process may run. */
  private final String allCpus;

  private final String unpinnedReason;

  private CpuPinning(boolean enabled, String serverCpus, String clientCpus, String unpinnedReason) {
    this.enabled = enabled;
    this.serverCpus = serverCpus;
    this.clientCpus = clientCpus;
    this.allCpus = "0-" + (Runtime.getRuntime().availableProcessors() - 1);
    this.unpinnedReason = unpinnedReason;
  }

  public static CpuPinning detect() {
    int cpus = Runtime.getRuntime().availableProcessors();
    if (cpus < 2 || !commandExists("taskset")) {
      return new CpuPinning(false, "all", "all", "not pinned (taskset missing or a single CPU)");
    }
    int half = cpus / 2;
    String servers = half == 1 ? "0" : "0-" + (half - 1);
    String clients = half == cpus - 1 ? Integer.toString(half) : half + "-" + (cpus - 1);
    return new CpuPinning(true, servers, clients, null);
  }

  public static CpuPinning disabled() {
    return new CpuPinning(false, "all", "all", "not pinned (smoke mode runs inside other programs)");
  }

  public boolean enabled() {
    return enabled;
  }

  public String describe() {
    return enabled ? "servers on CPU " + serverCpus + ", load generator on CPU " + clientCpus + " (taskset)"
        : unpinnedReason;
  }

  /** Pins every thread of each process (and of its children, e.g. PostgreSQL backends) to the server CPUs. */
  public void pinServers(List<Long> pids) throws IOException {
    place(pids, serverCpus);
  }

  /**
   * Lets these processes and this JVM run on every CPU, as a user runs them (undone by {@link #pinServers} and
   * {@link #pinThisProcessToClients}); processes they start from now on inherit that.
   */
  public void unpin(List<Long> pids) throws IOException {
    place(pids, allCpus);
    if (enabled) {
      run(List.of("taskset", "-a", "-p", "-c", allCpus, Long.toString(ProcessHandle.current().pid())));
    }
  }

  private void place(List<Long> pids, String cpus) throws IOException {
    if (enabled) {
      for (long pid : pids) {
        try {
          run(List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)));
        } catch (IOException e) {
          if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            throw e; // a process that exited meanwhile (a PostgreSQL backend) needs no pinning
          }
        }
      }
    }
  }

  /** Pins this JVM (every thread) to the client CPUs. */
  public void pinThisProcessToClients() throws IOException {
    if (enabled) {
      run(List.of("taskset", "-a", "-p", "-c", clientCpus, Long.toString(ProcessHandle.current().pid())));
    }
  }

  /** Prefix for commands that generate load (e.g. NNThroughputBenchmark), so they run on the client CPUs. */
  public List<String> clientCommandPrefix() {
    return enabled ? List.of("taskset", "-c", clientCpus) : List.of();
  }

  private static void run(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IOException("'" + String.join(" ", command) + "' failed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted running " + command, e);
    }
  }

  static boolean commandExists(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && new java.io.File(dir, name).canExecute()) {
        return true;
      }
    }
    return false;
  }

  /** Every descendant of a process (found through /proc), for servers that fork workers. */
  static List<Long> withDescendants(long pid) {
    List<Long> all = new ArrayList<>();
    all.add(pid);
    ProcessHandle.of(pid).ifPresent(handle -> handle.descendants().forEach(child -> all.add(child.pid())));
    return all;
  }
}

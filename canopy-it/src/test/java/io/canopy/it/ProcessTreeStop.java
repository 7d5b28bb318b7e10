package io.canopy.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A process and all its descendants stopped with SIGSTOP until {@link #close()} sends SIGCONT: how a test makes
 * PostgreSQL hang (its postmaster and every backend, checkpointer and writer process) without killing it. The
 * parent is stopped first so it forks no new child meanwhile.
 */
final class ProcessTreeStop implements AutoCloseable {
  private final List<Long> stopped = new ArrayList<>();

  private ProcessTreeStop() {
  }

  static ProcessTreeStop of(ProcessHandle root) throws IOException, InterruptedException {
    ProcessTreeStop stop = new ProcessTreeStop();
    try {
      stop.signal("STOP", root.pid());
      for (ProcessHandle child : root.descendants().toList()) {
        stop.signal("STOP", child.pid());
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      stop.close();
      throw e;
    }
    System.out.println("SIGSTOP sent to " + stop.stopped);
    return stop;
  }

  private void signal(String signal, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
    int status = kill.waitFor();
    if (status != 0 && signal.equals("STOP")) {
      throw new IOException("kill -" + signal + " " + pid + " exited with " + status + ": "
          + new String(kill.getInputStream().readAllBytes()));
    }
    if (signal.equals("STOP")) {
      stopped.add(pid);
    }
  }

  /** Sends SIGCONT to every process it stopped (a process that exited meanwhile is skipped). */
  @Override
  public void close() throws IOException, InterruptedException {
    for (int i = stopped.size() - 1; i >= 0; i--) {
      signal("CONT", stopped.get(i));
    }
    System.out.println("SIGCONT sent to " + stopped);
  }
}

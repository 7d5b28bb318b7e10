package io.canopy.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What the report says about where and from what it was measured. */
public record MachineInfo(String cpu, int cpus, long memoryMb, String os, String java, String commit) {
  public static MachineInfo detect(Path repository) {
    return new MachineInfo(cpuModel(), Runtime.getRuntime().availableProcessors(), totalMemoryMb(),
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), commit(repository));
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // not Linux: say so below
    }
    return System.getProperty("os.arch");
  }

  private static long totalMemoryMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // unknown
    }
    return -1;
  }

  private static String commit(Path repository) {
    try {
      Process git = new ProcessBuilder("git", "-C", repository.toString(), "rev-parse", "--short=12", "HEAD")
          .redirectErrorStream(true).start();
      String head = new String(git.getInputStream().readAllBytes()).trim();
      Process status = new ProcessBuilder("git", "-C", repository.toString(), "status", "--porcelain",
          "--untracked-files=no").redirectErrorStream(true).start();
      boolean dirty = !new String(status.getInputStream().readAllBytes()).isBlank();
      if (!git.waitFor(10, TimeUnit.SECONDS) || git.exitValue() != 0) {
        return "unknown";
      }
      status.waitFor(10, TimeUnit.SECONDS);
      return head + (dirty ? " (with uncommitted changes)" : "");
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}

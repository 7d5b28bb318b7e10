package io.canopy.cli;

import picocli.CommandLine.Option;

/** The {@code --dir} option every command shares. */
public final class ClusterDirOption {
  @Option(names = "--dir", paramLabel = "DIR",
      description = "Cluster directory (default: $" + ClusterLayout.DIR_ENVIRONMENT_VARIABLE + " if set, else "
          + ClusterLayout.DEFAULT_DIR + " in the working directory).")
  String dir;

  public ClusterLayout layout() {
    return ClusterLayout.resolve(dir, System.getenv(ClusterLayout.DIR_ENVIRONMENT_VARIABLE));
  }
}

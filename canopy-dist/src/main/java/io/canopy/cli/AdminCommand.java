package io.canopy.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "admin", mixinStandardHelpOptions = true,
    description = {"Operate the namenodes of a running cluster.",
        "--dir may come before or after the admin command. Run `canopy admin COMMAND --help` for details. To add a "
        + "namenode, run `canopy namenode`.",
        "Examples:",
        "  canopy admin namenodes",
        "  canopy admin --dir /tmp/c kill-namenode 1"},
    subcommands = {AdminNamenodesCommand.class, KillNamenodeCommand.class, CommandLine.HelpCommand.class})
public final class AdminCommand implements Runnable {
  @Mixin
  ClusterDirOption dirOption;

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing admin command: namenodes or kill-namenode");
  }

  /** The cluster directory of an admin command: its own --dir, else the one given to admin, else the default. */
  static ClusterLayout layout(ClusterDirOption own, AdminCommand parent) {
    if (own.dir == null && parent != null && parent.dirOption.dir != null) {
      return parent.dirOption.layout();
    }
    return own.layout();
  }
}

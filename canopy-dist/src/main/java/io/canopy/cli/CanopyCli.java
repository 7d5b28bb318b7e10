package io.canopy.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "canopy", mixinStandardHelpOptions = true, versionProvider = CanopyCli.Version.class,
    description = {"Canopy: an HDFS-compatible distributed file system with its metadata in PostgreSQL.",
        "Every command works on one cluster directory: --dir DIR, else $" + ClusterLayout.DIR_ENVIRONMENT_VARIABLE
            + ", else ./" + ClusterLayout.DEFAULT_DIR + "."},
    subcommands = {UpCommand.class, DownCommand.class, StatusCommand.class, DfsCommand.class, DfsAdminCommand.class,
        HdfsCommand.class, SqlCommand.class, FsckCommand.class, FormatCommand.class, NamenodeCommand.class,
        AdminCommand.class, CommandLine.HelpCommand.class},
    footer = {"", "Run `canopy COMMAND --help` for the options of a command. Set CANOPY_DEBUG=1 to see stack traces."})
public final class CanopyCli implements Runnable {
  /** Environment variable that makes errors print their stack trace. */
  public static final String DEBUG_VARIABLE = "CANOPY_DEBUG";
  private static final String CLI_LOG_CONFIGURATION = "canopy-cli-log4j.properties";

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "Missing command: one of up, down, status, dfs, dfsadmin, sql, format, namenode, admin");
  }

  public static void main(String[] args) {
    if (System.getProperty("log4j.configuration") == null) {
      // Before any Hadoop class logs: the CLI shows warnings and errors only; processes log to DIR/logs.
      System.setProperty("log4j.configuration", CLI_LOG_CONFIGURATION);
    }
    System.exit(newCommandLine().execute(args));
  }

  /** The command line with every subcommand, as main runs it; tests call execute on it. */
  public static CommandLine newCommandLine() {
    CommandLine commandLine = new CommandLine(new CanopyCli());
    for (String tool : new String[] {"dfs", "dfsadmin", "hdfs"}) {
      CommandLine passThrough = commandLine.getSubcommands().get(tool);
      // Everything from the first tool argument on belongs to the tool (FsShell, DFSAdmin, ...), options included.
      passThrough.setStopAtPositional(true);
      passThrough.setUnmatchedOptionsArePositionalParams(true);
      passThrough.setPosixClusteredShortOptionsAllowed(false);
    }
    commandLine.setExecutionExceptionHandler(CanopyCli::handleError);
    // Wrapped so picocli does not treat it as a legacy handler: for those it replaces the writers set with setOut
    // and setErr by the System.out/System.err of the moment the handler was made, if System.out changed since.
    CommandLine.RunLast runLast = new CommandLine.RunLast();
    commandLine.setExecutionStrategy(parseResult -> runLast.execute(parseResult));
    return commandLine;
  }

  private static int handleError(Exception error, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    PrintWriter err = commandLine.getErr();
    // "canopy up: ", "canopy admin namenodes: "
    String prefix = commandLine.getCommandSpec().qualifiedName() + ": ";
    boolean debug = System.getenv(DEBUG_VARIABLE) != null;
    int exitCode;
    if (error instanceof CliException cliError) {
      err.println(prefix + cliError.getMessage());
      exitCode = cliError.exitCode();
    } else if (error instanceof IOException) {
      // Store, file-system and connection errors: their messages say what failed and where. One line.
      err.println(prefix + String.valueOf(error.getMessage()).strip().replaceAll("\\s*\\R\\s*", "; "));
      exitCode = 1;
    } else {
      err.println(prefix + "internal error: " + error);
      debug = true;
      exitCode = 1;
    }
    if (debug) {
      error.printStackTrace(err);
    }
    err.flush();
    return exitCode;
  }

  /** The version of the canopy-dist jar, from the Maven metadata inside it. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = CanopyCli.class.getResourceAsStream(
          "/META-INF/maven/io.canopy/canopy-dist/pom.properties")) {
        if (in != null) {
          properties.load(in);
        }
      }
      return new String[] {"canopy " + properties.getProperty("version", "(development build)")};
    }
  }
}

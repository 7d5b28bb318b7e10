package io.canopy.cli;

import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.QueryResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "sql", mixinStandardHelpOptions = true,
    description = {"Query the metadata database with SQL.",
        "Runs one query on the metadata database of the cluster in DIR as its read-only role (it may read the "
        + "metadata tables, nothing else) and prints the rows as a table (NULL shown as NULL). Tables are described "
        + "in docs/schema.md; for example:",
        "  canopy sql \"SELECT id, parent_id, name, is_dir, size FROM inodes ORDER BY id\"",
        "If the database is not running, it is started inside this command for the query and stopped again "
        + "(refused while `canopy up`, `down` or `format` works on DIR)."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the query ran", "1:the query or the database failed (the message says why)",
        "2:invalid arguments"})
public final class SqlCommand implements Callable<Integer> {
  static final int MAX_ROWS_LIMIT = 1_000_000;

  @Mixin
  ClusterDirOption dirOption;

  @Option(names = "--max-rows", paramLabel = "N", defaultValue = "1000",
      description = "Print at most N rows (default: ${DEFAULT-VALUE}).")
  int maxRows;

  @Parameters(index = "0", paramLabel = "QUERY", description = "The SQL query, quoted as one argument.")
  String query;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (maxRows < 1 || maxRows > MAX_ROWS_LIMIT) {
      throw new CliException(2, "--max-rows must be within [1, " + MAX_ROWS_LIMIT + "], got " + maxRows);
    }
    if (query.isBlank()) {
      throw new CliException(2, "the query is empty");
    }
    ClusterLayout layout = dirOption.layout();
    layout.requireCluster();
    PrintWriter out = spec.commandLine().getOut();
    QueryResult result = DatabaseSession.withStore(layout, MetadataAccess.Login.READER, spec.commandLine().getErr(),
        store -> adminQueries(store).adminQuery(query, maxRows));
    out.print(TextTable.render(result));
    out.flush();
    return 0;
  }

  /** The store's operator queries; refused, naming the store's engine, when the engine has none. */
  static AdminQueries adminQueries(MetadataStore store) {
    return store.capability(AdminQueries.class).orElseThrow(() -> new CliException("the metadata store ("
        + store.describe() + ") runs no administrative queries: canopy sql needs an engine that does, such as "
        + "postgres"));
  }
}

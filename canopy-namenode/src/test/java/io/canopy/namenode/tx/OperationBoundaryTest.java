package io.canopy.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Operations reach the database only through their {@link TransactionContext}: its guarded writes, and the narrow
 * {@link FileTables} and {@link ClusterTables} it hands out. No operation's source may name the raw transaction, which
 * would let it change inodes, ACLs, attributes or quotas past the lock checks.
 */
class OperationBoundaryTest {
  /** The raw transaction named any way: imported, imported with its package's wildcard, or fully qualified. */
  private static final Pattern RAW_TRANSACTION = Pattern.compile("io\\.canopy\\.metadata\\.dal\\.(Transaction\\b|\\*)");
  private static final List<String> OPERATION_PACKAGES = List.of("ops", "replication", "datanode", "safemode",
      "quota", "permission", "leases");

  @Test
  void noOperationNamesTheRawTransaction() throws IOException {
    Path root = Path.of("src", "main", "java", "io", "canopy", "namenode");
    assertTrue(Files.isDirectory(root), "run from the canopy-namenode module directory: " + root.toAbsolutePath());
    List<String> offenders = new ArrayList<>();
    for (String pkg : OPERATION_PACKAGES) {
      Path dir = root.resolve(pkg);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          if (RAW_TRANSACTION.matcher(Files.readString(file)).find()) {
            offenders.add(root.relativize(file).toString());
          }
        }
      }
    }
    assertEquals(List.of(), offenders, "operations that import the raw transaction");
  }

  /**
   * The namenode reaches its metadata engine only through the engine-neutral API (the engine is found with
   * ServiceLoader): the build keeps main code off the PostgreSQL module (runtime scope), this keeps the tests off it.
   */
  @Test
  void noNamenodeSourceNamesThePostgresEngine() throws IOException {
    List<String> offenders = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        if (Files.readString(file).contains("io.canopy.metadata." + "postgres")) {
          offenders.add(file.toString());
        }
      }
    }
    assertEquals(List.of(), offenders, "namenode sources that name the PostgreSQL engine");
  }
}

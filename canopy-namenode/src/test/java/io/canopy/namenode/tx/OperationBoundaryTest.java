package io.canopy.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Operations reach the database only through their {@link TransactionContext}: its guarded writes, and the narrow
 * {@link FileTables} and {@link ClusterTables} it hands out. No operation's source may name the raw transaction, which
 * would let it change inodes, ACLs, attributes or quotas past the lock checks.
 */
class OperationBoundaryTest {
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
          if (Files.readString(file).contains("import io.canopy.metadata.dal.Transaction;")) {
            offenders.add(root.relativize(file).toString());
          }
        }
      }
    }
    assertEquals(List.of(), offenders, "operations that import the raw transaction");
  }
}

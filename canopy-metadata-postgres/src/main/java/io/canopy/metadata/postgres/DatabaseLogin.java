package io.canopy.metadata.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

/** A PostgreSQL login whose password is the first line of a file only its owner reads (0600). */
public record DatabaseLogin(String user, Path passwordFile) {
  public DatabaseLogin {
    if (user == null || user.isBlank()) {
      throw new IllegalArgumentException("a database login needs a user name");
    }
  }

  /** The password; fails naming the file when it is missing or empty. */
  public String password() throws IOException {
    List<String> lines = Files.readAllLines(passwordFile);
    if (lines.isEmpty() || lines.get(0).isEmpty()) {
      throw new IOException("The password file " + passwordFile + " of database user " + user + " is empty");
    }
    return lines.get(0);
  }

  /** A plain JDBC connection with this login (administrative work and tests; the namenode uses its pool). */
  public Connection connect(String jdbcUrl) throws IOException, SQLException {
    return DriverManager.getConnection(jdbcUrl, user, password());
  }
}

package io.canopy.metadata.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The embedded server's {@code pg_hba.conf}. zonky's initdb writes one that trusts every local connection; Canopy
 * replaces it before every start with password logins (SCRAM-SHA-256) over loopback TCP only: no trust, no Unix
 * socket. A file without {@link #MARKER} was written by initdb for an older release, whose superuser has no
 * password yet: such a directory is upgraded once (see {@link EmbeddedPostgresServer}).
 */
final class HostBasedAccess {
  static final String FILE = "pg_hba.conf";
  /** First line of the file Canopy writes; its absence means the directory predates password logins. */
  static final String MARKER = "# canopy: password logins only";

  private HostBasedAccess() {
  }

  static boolean passwordLoginsOnly(Path dataDirectory) throws IOException {
    Path file = dataDirectory.resolve(FILE);
    return Files.isRegularFile(file) && Files.readString(file).startsWith(MARKER + "\n");
  }

  static void writePasswordLoginsOnly(Path dataDirectory) throws IOException {
    SecretFiles.write(dataDirectory.resolve(FILE), MARKER + "\n"
        + "# Written by Canopy on every start of the embedded server; changes are overwritten.\n"
        + "# TYPE  DATABASE  USER  ADDRESS       METHOD\n"
        + "host    all       all   127.0.0.1/32  scram-sha-256\n"
        + "host    all       all   ::1/128       scram-sha-256\n");
  }

  /**
   * For the one start that upgrades an older directory: only the superuser, only from loopback, only to its own
   * database, without a password, just long enough to give it one. The previous release trusted every local login
   * all the time; no marker, so an upgrade cut short is simply done again by the next start.
   */
  static void writeUpgradeOnly(Path dataDirectory) throws IOException {
    SecretFiles.write(dataDirectory.resolve(FILE), "# canopy: upgrading to password logins; replaced when done\n"
        + "host    postgres  postgres  127.0.0.1/32  trust\n"
        + "host    postgres  postgres  ::1/128       trust\n");
  }
}

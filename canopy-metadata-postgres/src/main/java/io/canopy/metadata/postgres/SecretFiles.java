package io.canopy.metadata.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * Generated passwords in files only their owner can read: a directory 0700 holding files 0600. Permissions are set
 * again on every call, so a file someone opened up is closed again by the next start.
 */
public final class SecretFiles {
  private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  /** 24 random bytes: 192 bits, 32 characters of URL-safe base64 (no quoting needed anywhere). */
  private static final int PASSWORD_BYTES = 24;
  /**
   * Not injectable on purpose: a password must not be reproducible from a test seed. Nothing else in Canopy
   * depends on this randomness, so runs stay reproducible.
   */
  private static final SecureRandom RANDOM = new SecureRandom();

  private SecretFiles() {
  }

  public static void ensureDirectory(Path directory) throws IOException {
    Files.createDirectories(directory);
    Files.setPosixFilePermissions(directory, DIRECTORY);
  }

  /** Creates {@code file} with a new random password unless it exists; either way leaves it 0600. */
  static void ensurePassword(Path file) throws IOException {
    if (!Files.exists(file)) {
      byte[] bytes = new byte[PASSWORD_BYTES];
      RANDOM.nextBytes(bytes);
      write(file, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes) + "\n");
    }
    Files.setPosixFilePermissions(file, FILE);
  }

  /**
   * Writes {@code file} atomically, 0600 from its creation on (a temporary file made with those permissions, then
   * moved over it): the content is never readable by others, not even for a moment.
   */
  public static void write(Path file, String content) throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(temporary);
    Files.createFile(temporary, PosixFilePermissions.asFileAttribute(FILE));
    Files.writeString(temporary, content);
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}

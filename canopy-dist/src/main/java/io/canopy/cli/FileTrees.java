package io.canopy.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/** Small file-tree helpers. */
final class FileTrees {
  private FileTrees() {
  }

  /** Whether {@code dir} holds any file at any depth. */
  static boolean holdsFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.anyMatch(Files::isRegularFile);
    }
  }

  /** Deletes everything inside {@code dir}, keeping {@code dir}. Does not follow symbolic links. */
  static void deleteContents(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path visited, IOException failure) throws IOException {
        if (failure != null) {
          throw failure;
        }
        if (!visited.equals(dir)) {
          Files.delete(visited);
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;

/** Naming, writing and reading whole files in tests. */
final class TestFiles {
  private TestFiles() {
  }

  /** The file system path {@code text} (tests import it statically). */
  static Path path(String text) {
    return new Path(text);
  }

  static byte[] randomBytes(int length, long seed) {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    return data;
  }

  /** Writes {@code data} to {@code path} (replaced if it exists) with the file system's default settings. */
  static void write(FileSystem fs, Path path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(path)) {
      out.write(data);
    }
  }

  /** Writes {@code data} to {@code path} (replaced if it exists) in blocks of {@code blockSize}, 3 replicas each. */
  static void write(FileSystem fs, Path path, byte[] data, long blockSize) throws IOException {
    write(fs, path, data, (short) 3, blockSize);
  }

  static void write(FileSystem fs, Path path, byte[] data, short replication, long blockSize) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true, 4096, replication, blockSize)) {
      out.write(data);
    }
  }

  static byte[] read(FileSystem fs, Path path) throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      byte[] data = new byte[(int) fs.getFileStatus(path).getLen()];
      IOUtils.readFully(in, data, 0, data.length);
      assertEquals(-1, in.read(), "file " + path + " is longer than its status says");
      return data;
    }
  }
}

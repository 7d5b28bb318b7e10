package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;

/** Writing and reading whole files in tests. */
final class TestFiles {
  private TestFiles() {
  }

  static byte[] randomBytes(int length, long seed) {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    return data;
  }

  static void write(FileSystem fs, Path path, byte[] data, long blockSize) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true, 4096, (short) 3, blockSize)) {
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

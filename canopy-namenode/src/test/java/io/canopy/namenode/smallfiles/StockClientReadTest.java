package io.canopy.namenode.smallfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.MD5MD5CRC32CastagnoliFileChecksum;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.MD5Hash;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

/**
 * A stock {@link DFSClient} (DFSInputStream, BlockReaderFactory, its peer cache, FileChecksumHelper) reads
 * database-resident files from the endpoint: its namenode is a stand-in that answers getBlockLocations with the
 * file's one negative block on {@link SmallFilesDatanode}, as the namenode will.
 */
class StockClientReadTest extends EndpointTest {
  private final Map<String, LocatedBlocks> files = new ConcurrentHashMap<>();
  private byte[] smallFile(String path, long inodeId, int size) {
    byte[] data = blocks.put(-inodeId, size, STAMP);
    LocatedBlock located = SmallFilesDatanode.at(server.address()).located(new ExtendedBlock(POOL, -inodeId, size, STAMP), 0);
    files.put(path, new LocatedBlocks(size, false, List.of(located), located, true, null, null));
    return data;
  }

  private DFSClient client(Configuration conf) throws IOException {
    ClientProtocol namenode = (ClientProtocol) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ClientProtocol.class}, new StandInNamenode(files));
    return new DFSClient(null, namenode, conf, null);
  }

  @Test
  void readsSmallFilesWholeAndByPositionThroughOneKeptConnection() throws IOException {
    int[] sizes = {1, 511, 512, 513, 4096, 65536};
    try (DFSClient client = client(new Configuration(false))) {
      for (int i = 0; i < sizes.length; i++) {
        byte[] data = smallFile("/f" + i, 1000 + i, sizes[i]);
        try (DFSInputStream in = client.open("/f" + i)) {
          byte[] read = new byte[sizes[i]];
          in.readFully(0, read);
          assertArrayEquals(data, read, sizes[i] + " bytes, seed " + InMemoryBlocks.SEED);
          if (sizes[i] > 600) {
            byte[] middle = new byte[sizes[i] / 3];
            in.readFully(sizes[i] / 3 + 1, middle);
            assertArrayEquals(Arrays.copyOfRange(data, sizes[i] / 3 + 1, sizes[i] / 3 + 1 + middle.length), middle);
          }
        }
      }
    }
    assertTrue(server.acceptedConnections() < sizes.length,
        "the client's peer cache reused kept connections: " + server.acceptedConnections() + " connections");
  }

  @Test
  void fileChecksumIsTheMd5OfTheMd5OfTheChunkCrcsAsForDatanodeBlocks() throws Exception {
    try (DFSClient client = client(new Configuration(false))) {
      for (int size : new int[] {1, 512, 513, 65536}) {
        byte[] data = smallFile("/md5-" + size, 2000 + size, size);
        assertEquals(fileMd5(chunkCrcs(data, size)), client.getFileChecksumWithCombineMode("/md5-" + size, size),
            size + " bytes");
        // A prefix: the last chunk's crc is computed over the prefix's bytes, as a datanode does.
        assertEquals(fileMd5(chunkCrcs(data, size / 2 + 1)),
            client.getFileChecksumWithCombineMode("/md5-" + size, size / 2 + 1), size + " bytes, prefix");
      }
    }
  }

  /**
   * A one-block file's MD5-of-MD5-of-CRC32C as HDFS's client makes it from the block's MD5: the MD5 of its block
   * MD5s buffer, which is a {@link DataOutputBuffer}'s whole array (32 bytes for one block MD5), padding included.
   */
  private static FileChecksum fileMd5(byte[] chunkCrcs) throws Exception {
    DataOutputBuffer blockMd5s = new DataOutputBuffer();
    new MD5Hash(md5(chunkCrcs)).write(blockMd5s);
    return new MD5MD5CRC32CastagnoliFileChecksum(512, 0, MD5Hash.digest(blockMd5s.getData()));
  }

  @Test
  void compositeCrcFileChecksumIsTheCrc32cOfTheBytes() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(HdfsClientConfigKeys.DFS_CHECKSUM_COMBINE_MODE_KEY, "COMPOSITE_CRC");
    try (DFSClient client = client(conf)) {
      for (int size : new int[] {1, 512, 513, 65536}) {
        byte[] data = smallFile("/crc-" + size, 3000 + size, size);
        FileChecksum checksum = client.getFileChecksumWithCombineMode("/crc-" + size, size);
        assertEquals("COMPOSITE-CRC32C", checksum.getAlgorithmName());
        assertArrayEquals(crc32c(data, 0, size), checksum.getBytes(), size + " bytes");
        FileChecksum prefix = client.getFileChecksumWithCombineMode("/crc-" + size, size / 2 + 1);
        assertArrayEquals(crc32c(data, 0, size / 2 + 1), prefix.getBytes(), size + " bytes, prefix");
      }
    }
  }

  /** The CRC32C of each 512-byte chunk of {@code data[0, length)}, 4 bytes each, big-endian: java.util.zip only. */
  static byte[] chunkCrcs(byte[] data, int length) {
    ByteBuffer crcs = ByteBuffer.allocate(((length + 511) / 512) * 4);
    for (int chunk = 0; chunk < length; chunk += 512) {
      crcs.put(crc32c(data, chunk, Math.min(512, length - chunk)));
    }
    return crcs.array();
  }

  static byte[] crc32c(byte[] data, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, offset, length);
    return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
  }

  static byte[] md5(byte[] bytes) throws NoSuchAlgorithmException {
    return MessageDigest.getInstance("MD5").digest(bytes);
  }

  /** The namenode calls a reading DFSClient makes: block locations of the test's files, and server defaults. */
  private static final class StandInNamenode implements InvocationHandler, Closeable {
    private final Map<String, LocatedBlocks> files;

    StandInNamenode(Map<String, LocatedBlocks> files) {
      this.files = files;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws IOException {
      switch (method.getName()) {
        case "getBlockLocations":
          LocatedBlocks located = files.get((String) args[0]);
          if (located == null) {
            throw new java.io.FileNotFoundException((String) args[0]);
          }
          return located;
        case "getServerDefaults":
          return new FsServerDefaults(128L << 20, 512, 64 << 10, (short) 3, 4096, false, 0,
              DataChecksum.Type.CRC32C);
        case "toString":
          return "stand-in namenode";
        default:
          throw new UnsupportedOperationException("the stand-in namenode does not answer " + method.getName());
      }
    }

    @Override
    public void close() {
    }
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFileSystem;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Encrypted data transfer ({@code dfs.encrypt.data.transfer=true} with block access tokens, design 023): the
 * namenodes tell clients to encrypt and hand out data encryption keys derived from the block keys they share through
 * the database; the stock DataNodes derive the same keys from the key id and nonce. Files written through one namenode
 * read back through the other, a database-resident small file read by a stock client from the namenode's small-file
 * endpoint (which does the same handshake), and a plain, unencrypted read refused by both kinds of server.
 */
@Timeout(240)
class EncryptedDataTransferTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> {
        conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
        conf.setBoolean(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY, true);
        conf.set(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_CIPHER_SUITES_KEY, "AES/CTR/NoPadding");
      })
      .nameNodes(2).dataNodes(3).awaitLeader().build();

  /**
   * What a plain (unencrypted) READ_BLOCK of {@code block} with its valid {@code token} gets from {@code address}: a
   * status, or null when the server closed the connection without one.
   */
  private static Status plainRead(InetSocketAddress address, ExtendedBlock block, Token<BlockTokenIdentifier> token)
      throws IOException {
    try (java.net.Socket probe = new java.net.Socket()) {
      probe.connect(address, 10_000); // the server listens: a refusal below is its answer, not a dead port
    }
    try {
      return BlockAccessTokenTest.rawRead(address, block, token);
    } catch (IOException e) {
      return null; // closed: the server wanted the handshake
    }
  }

  @Test
  void filesTravelEncryptedAndPlainReadsAreRefused() throws Exception {
    DistributedFileSystem first = CLUSTER.fileSystem(0);
    DistributedFileSystem second = CLUSTER.fileSystem(1);
    assertTrue(first.getServerDefaults(new Path("/")).getEncryptDataTransfer(), "clients are told to encrypt");
    DataEncryptionKey key = second.getClient().getNamenode().getDataEncryptionKey();
    assertNotNull(key, "a namenode hands out data encryption keys");

    byte[] data = TestFiles.randomBytes(3 * BLOCK_SIZE + 11, 21);
    Path path = new Path("/encrypted/three-blocks");
    TestFiles.write(first, path, data, BLOCK_SIZE);
    assertArrayEquals(data, TestFiles.read(second, path), "written through one namenode, read through the other");

    LocatedBlock block = second.getClient().getNamenode().getBlockLocations(path.toString(), 0, data.length).get(0);
    assertEquals(block.getBlock().getBlockPoolId(), key.blockPoolId, "a key of the cluster's block pool");
    InetSocketAddress datanode = new InetSocketAddress("127.0.0.1", block.getLocations()[0].getXferPort());
    assertNotEquals(Status.SUCCESS, plainRead(datanode, block.getBlock(), block.getBlockToken()),
        "a DataNode serves no plain read, even with a valid token");
  }

  @Test
  void theSmallFileEndpointDoesTheHandshakeToo() throws Exception {
    Configuration canopyClient = new Configuration(CLUSTER.cluster().conf());
    canopyClient.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    byte[] small = TestFiles.randomBytes(700, 22);
    Path path = new Path("/encrypted/small");
    try (FileSystem canopy = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), canopyClient)) {
      TestFiles.write(canopy, path, small, BLOCK_SIZE);
    }
    DistributedFileSystem stock = CLUSTER.fileSystem(1);
    LocatedBlock block = stock.getClient().getNamenode().getBlockLocations(path.toString(), 0, small.length).get(0);
    InetSocketAddress endpoint = CLUSTER.cluster().nameNode(1).smallFileReadAddress();
    assertEquals(endpoint.getPort(), block.getLocations()[0].getXferPort(), "the file lives in the database");
    assertArrayEquals(small, TestFiles.read(stock, path), "a stock client reads it through the encrypted handshake");
    assertNotEquals(Status.SUCCESS, plainRead(endpoint, block.getBlock(), block.getBlockToken()),
        "the endpoint serves no plain read either");
  }
}

package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFileSystem;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Block access tokens ({@code dfs.block.access.token.enable=true}) with keys shared through the database: files
 * written through one namenode and read through the other, their located blocks carrying tokens; a raw read of a
 * block with no token, or a forged one, refused by the stock DataNode and by the namenode's small-file endpoint, the
 * same read with the namenode's token served; replication (tokens the DataNodes sign themselves) still works.
 */
@Timeout(240)
class BlockAccessTokenTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true))
      .nameNodes(2).dataNodes(3).awaitLeader().build();

  /** The status a raw READ_BLOCK of {@code block} with {@code token} gets from the server at {@code address}. */
  static Status rawRead(InetSocketAddress address, ExtendedBlock block, Token<BlockTokenIdentifier> token)
      throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(address, 10_000);
      socket.setSoTimeout(30_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      new Sender(out).readBlock(block, token, "token-test", 0, block.getNumBytes(), true,
          CachingStrategy.newDefaultStrategy());
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      return BlockOpResponseProto.parseFrom(PBHelperClient.vintPrefixed(in)).getStatus();
    }
  }

  /** {@code token} with its password's first byte changed: what a guess at the key would send. */
  private static Token<BlockTokenIdentifier> forged(Token<BlockTokenIdentifier> token) {
    byte[] password = Arrays.copyOf(token.getPassword(), token.getPassword().length);
    password[0] ^= 0x5a;
    return new Token<>(token.getIdentifier(), password, token.getKind(), token.getService());
  }

  @Test
  void filesWrittenAndReadThroughEitherNamenodeCarryTokensAndDatanodesRefuseReadsWithout() throws Exception {
    DistributedFileSystem first = CLUSTER.fileSystem(0);
    DistributedFileSystem second = CLUSTER.fileSystem(1);
    byte[] data = TestFiles.randomBytes(2 * BLOCK_SIZE + 17, 3);
    Path path = new Path("/tokens/two-blocks");
    TestFiles.write(first, path, data, BLOCK_SIZE);
    assertArrayEquals(data, TestFiles.read(second, path), "written through one namenode, read through the other");

    LocatedBlocks located = second.getClient().getNamenode().getBlockLocations(path.toString(), 0, data.length);
    LocatedBlock block = located.get(0);
    assertTrue(block.getBlockToken().getIdentifier().length > 0, "a located block carries a token");
    InetSocketAddress datanode = new InetSocketAddress("127.0.0.1", block.getLocations()[0].getXferPort());
    ExtendedBlock guessed = new ExtendedBlock(block.getBlock());
    assertEquals(Status.ERROR_ACCESS_TOKEN, rawRead(datanode, guessed, new Token<>()), "no token");
    assertEquals(Status.ERROR_ACCESS_TOKEN, rawRead(datanode, guessed, forged(block.getBlockToken())), "forged");
    assertEquals(Status.SUCCESS, rawRead(datanode, guessed, block.getBlockToken()), "the namenode's token");
    // a token for one block does not open another
    assertEquals(Status.ERROR_ACCESS_TOKEN, rawRead(datanode, located.get(1).getBlock(), block.getBlockToken()));
  }

  @Test
  void locatedFileInfoWithTokensNeedsReadAccess() throws Exception {
    DistributedFileSystem owner = CLUSTER.fileSystem(0);
    Path secret = new Path("/tokens/secret");
    TestFiles.write(owner, secret, TestFiles.randomBytes(1000, 6), BLOCK_SIZE);
    owner.setPermission(secret, new org.apache.hadoop.fs.permission.FsPermission((short) 0600));
    DistributedFileSystem mallory = CLUSTER.users().as("mallory", "mallory");
    // without tokens the status and locations are HDFS's answer to anyone who may traverse; with tokens, only readers
    assertTrue(mallory.getClient().getNamenode().getLocatedFileInfo(secret.toString(), false) != null);
    RemoteException refused = assertThrows(RemoteException.class,
        () -> mallory.getClient().getNamenode().getLocatedFileInfo(secret.toString(), true));
    assertEquals(AccessControlException.class.getName(), refused.getClassName(), refused.getMessage());
    assertTrue(owner.getClient().getNamenode().getLocatedFileInfo(secret.toString(), true).getLocatedBlocks().get(0)
        .getBlockToken().getIdentifier().length > 0, "the owner gets its blocks with tokens");
  }

  @Test
  void theBalancerGetsTheKeysAsTheSuperuserOnly() throws Exception {
    URI namenode = URI.create(CLUSTER.cluster().uri(1));
    ExportedBlockKeys keys = NameNodeProxies.createProxy(CLUSTER.cluster().conf(), namenode, NamenodeProtocol.class)
        .getProxy().getBlockKeys();
    assertTrue(keys.isBlockTokenEnabled());
    assertTrue(keys.getKeyUpdateInterval() > 0 && keys.getTokenLifetime() > 0, "a balancer would spin on zero");
    assertTrue(Arrays.stream(keys.getAllKeys()).anyMatch(key -> key.getKeyId() == keys.getCurrentKey().getKeyId()),
        "the current key is among the keys");
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory", new String[] {"mallory"});
    RemoteException refused = assertThrows(RemoteException.class, () -> mallory.doAs(
        (PrivilegedExceptionAction<ExportedBlockKeys>) () -> NameNodeProxies.createProxy(CLUSTER.cluster().conf(),
            namenode, NamenodeProtocol.class).getProxy().getBlockKeys()));
    assertEquals(AccessControlException.class.getName(), refused.getClassName(), refused.getMessage());
  }

  @Test
  void theSmallFileEndpointChecksTokensToo() throws Exception {
    Configuration canopyClient = new Configuration(CLUSTER.cluster().conf());
    canopyClient.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    byte[] small = TestFiles.randomBytes(900, 4);
    Path path = new Path("/tokens/small");
    try (FileSystem canopy = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), canopyClient)) {
      TestFiles.write(canopy, path, small, BLOCK_SIZE);
      assertArrayEquals(small, TestFiles.read(canopy, path), "Canopy's client reads it with its metadata");
    }
    DistributedFileSystem stock = CLUSTER.fileSystem(1);
    assertArrayEquals(small, TestFiles.read(stock, path), "a stock client reads it from the endpoint, with a token");
    LocatedBlock block = stock.getClient().getNamenode().getBlockLocations(path.toString(), 0, small.length).get(0);
    InetSocketAddress endpoint = CLUSTER.cluster().nameNode(1).smallFileReadAddress();
    assertEquals(Status.ERROR_ACCESS_TOKEN, rawRead(endpoint, block.getBlock(), new Token<>()), "no token");
    assertEquals(Status.ERROR_ACCESS_TOKEN, rawRead(endpoint, block.getBlock(), forged(block.getBlockToken())));
    assertEquals(Status.SUCCESS, rawRead(endpoint, block.getBlock(), block.getBlockToken()));
  }

  @Test
  void replicationWorksWithTheTokensDatanodesSignThemselves() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem(0);
    Path path = new Path("/tokens/replicated");
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE + 5, 5);
    try (var out = fs.create(path, true, 4096, (short) 1, BLOCK_SIZE)) {
      out.write(data);
    }
    fs.setReplication(path, (short) 3);
    Await.until("3 replicas of each block", Duration.ofSeconds(90), () -> {
      for (var location : fs.getFileBlockLocations(path, 0, Long.MAX_VALUE)) {
        if (location.getHosts().length != 3) {
          return false;
        }
      }
      return true;
    });
    assertArrayEquals(data, TestFiles.read(CLUSTER.fileSystem(1), path));
  }
}

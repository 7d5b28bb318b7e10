package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.datanode.DataNodeLauncher;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The namenode's bound on the rows of subtrees it holds ({@code canopy.namenode.subtree.max-rows}), here 60: a
 * recursive delete counts the blocks and replicas of its files too (past the bound it is done in parts, design 017),
 * and operations together cannot pass the bound
 * (a store decorator holds one in the middle of its subtree while another runs).
 */
@Timeout(300)
class SubtreeRowsTest {
  private static final long LIMIT = 60;
  private static final int BLOCK_SIZE = 1024;

  @TempDir
  static Path directory;
  static EmbeddedPostgresServer database;
  static GatedStore store;
  static NameNode nameNode;
  static DataNode dataNode;
  static DistributedFileSystem fs;
  static ClientProtocol namenode;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong(NameNodeConfig.SUBTREE_MAX_ROWS, LIMIT);
    database = EmbeddedPostgresServer.start(directory.resolve("db"), directory.resolve("secrets"), 0);
    database.ownerSettings().forEach(conf::set);
    try (MetadataStore plain = MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf))) {
      NamespaceFormatter.format(plain, conf, false);
    }
    store = new GatedStore(MetadataStoreProvider.open("postgres", NameNodeConfig.namenodeMetadataSettings(conf)));
    nameNode = NameNode.start(new Configuration(conf), store);
    Configuration dataNodeConf = MiniCanopyCluster.dataNodeConfigurationFor(nameNode, conf);
    dataNode = DataNodeLauncher.start(dataNodeConf, directory.resolve("dn0"));
    fs = (DistributedFileSystem) FileSystem.newInstance(URI.create(nameNode.uri()), new Configuration(conf));
    namenode = fs.getClient().getNamenode();
    StormTest.awaitLiveDatanode(fs);
  }

  @AfterAll
  static void stopCluster() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (dataNode != null) {
      dataNode.shutdown();
    }
    if (nameNode != null) {
      nameNode.close(); // closes the store
    }
    if (database != null) {
      database.close();
    }
  }

  /**
   * 20 one-block files (replication 1) in a directory: 21 inodes to count, but 61 rows to delete (each file's block
   * and replica too), one more than the bound: too many for one transaction, so the delete takes the subtree protocol
   * (design 017), whose transactions each stay within the bound; one file fewer and the delete fits in one.
   */
  @Test
  void aDeleteCountsTheBlocksAndReplicasOfItsFiles() throws IOException {
    for (String directory : new String[] {"/files", "/fewer"}) {
      for (int i = 0; i < (directory.equals("/files") ? 20 : 19); i++) {
        try (FSDataOutputStream out = fs.create(path(String.format("%s/f%02d", directory, i)), true, 4096,
            (short) 1, BLOCK_SIZE)) {
          out.write(TestFiles.randomBytes(BLOCK_SIZE, i));
        }
      }
    }
    assertEquals(20, fs.getContentSummary(path("/files")).getFileCount(), "21 rows: counted");
    long subtreeOperations = subtreeOperations();
    assertTrue(fs.delete(path("/files"), true), "61 rows, in parts");
    assertFalse(fs.exists(path("/files")));
    assertEquals(subtreeOperations + 1, subtreeOperations(), "through the subtree protocol");
    assertTrue(fs.delete(path("/fewer"), true), "58 rows");
    assertFalse(fs.exists(path("/fewer")));
    assertEquals(subtreeOperations + 1, subtreeOperations(), "in one transaction");
  }

  private static long subtreeOperations() {
    return nameNode.runner().metrics().snapshot()
        .getOrDefault("subtreeLock", io.canopy.namenode.tx.OperationMetrics.Snapshot.ZERO).operations();
  }

  /** Two directories of 36 inodes each: either alone fits, both at once do not. */
  @Test
  void anOperationFindingTheOthersHoldingTooMuchIsToldToRetry() throws Exception {
    for (String top : new String[] {"/one", "/two"}) {
      for (int i = 0; i < 35; i++) {
        assertTrue(fs.mkdirs(path(String.format("%s/d%02d", top, i))));
      }
    }
    store.gate(namenode.getFileInfo("/one/d00").getFileId()); // /one stops before reading its second level
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<ContentSummary> first = thread.submit(() -> namenode.getContentSummary("/one"));
      assertTrue(store.awaitReached(), "the first count reached its second level");
      RemoteException busy = assertThrows(RemoteException.class, () -> namenode.getContentSummary("/two"));
      assertEquals(RetriableException.class.getName(), busy.getClassName());
      assertTrue(busy.getMessage().startsWith("getContentSummary /two: other operations hold 36 rows of subtrees")
          && busy.getMessage().contains(NameNodeConfig.SUBTREE_MAX_ROWS), busy.getMessage());
      store.open();
      assertEquals(36, first.get(60, TimeUnit.SECONDS).getDirectoryCount());
      assertEquals(36, namenode.getContentSummary("/two").getDirectoryCount(), "the first gave its rows back");
    } finally {
      store.open();
      thread.shutdownNow();
    }
  }
}

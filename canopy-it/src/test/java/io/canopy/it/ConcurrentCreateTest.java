package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Racing creators of one name, through two namenodes: exactly one wins, the rest get HDFS's exception. */
@Timeout(120)
class ConcurrentCreateTest {
  private static final int CLIENTS = 8;
  private static final int ROUNDS = 5;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(2).dataNodes(1).build();

  @Test
  void exactlyOneCreatorOfANameSucceeds() throws Exception {
    List<DistributedFileSystem> clients = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      clients.add(CLUSTER.cluster().fileSystem(i % 2));
    }
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/race/round" + round + "/file");
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/race/round" + round + "/dir");
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> files = new ArrayList<>();
        List<Future<Boolean>> dirs = new ArrayList<>();
        for (DistributedFileSystem client : clients) {
          files.add(pool.submit(() -> {
            start.await();
            try {
              client.create(file, false).close();
              return true;
            } catch (FileAlreadyExistsException lost) {
              return false;
            } catch (RemoteException remote) {
              IOException unwrapped = remote.unwrapRemoteException(FileAlreadyExistsException.class,
                  AlreadyBeingCreatedException.class);
              if (unwrapped instanceof FileAlreadyExistsException
                  || unwrapped instanceof AlreadyBeingCreatedException) {
                return false; // the winner's file exists, closed or still being written
              }
              throw unwrapped;
            }
          }));
          dirs.add(pool.submit(() -> {
            start.await();
            // mkdirs of an existing directory succeeds in HDFS: every caller succeeds, one row exists
            return client.mkdirs(dir);
          }));
        }
        start.countDown();
        int fileWinners = 0;
        for (Future<Boolean> result : files) {
          fileWinners += result.get(60, TimeUnit.SECONDS) ? 1 : 0;
        }
        for (Future<Boolean> result : dirs) {
          assertTrue(result.get(60, TimeUnit.SECONDS));
        }
        assertEquals(1, fileWinners, "round " + round + ": exactly one creator of " + file + " succeeds");
      }
    } finally {
      pool.shutdownNow();
    }
    try (MetadataStore store = CLUSTER.cluster().openStore()) {
      // the rows read as NamespaceInvariants reads them, on either engine (Ignite keeps names as bytes)
      List<NamespaceInvariants.Row> inodes = NamespaceInvariants.inodes(store);
      assertEquals(2 * ROUNDS, inodes.stream().filter(row -> row.name().equals("file") || row.name().equals("dir"))
          .count(), "one row per created name");
      java.util.Set<String> names = new java.util.HashSet<>();
      for (NamespaceInvariants.Row row : inodes) {
        assertTrue(names.add(row.parentId() + "/" + row.name()), "no name twice in one directory: " + row);
      }
    }
  }

  @Test
  void oneClientCreatesManyFilesAtOnce() throws Exception {
    DistributedFileSystem client = CLUSTER.cluster().fileSystem(0); // one client name, so one lease for every file
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> creates = new ArrayList<>();
      for (int i = 0; i < CLIENTS * 2; i++) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/same-client/f" + i);
        creates.add(pool.submit(() -> {
          start.await();
          client.create(file, false).close();
          return null;
        }));
      }
      start.countDown();
      for (Future<?> create : creates) {
        create.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(CLIENTS * 2, client.listStatus(new org.apache.hadoop.fs.Path("/same-client")).length);
  }

  @Test
  void clientOverwritesItsOwnOpenFile() throws Exception {
    DistributedFileSystem client = CLUSTER.cluster().fileSystem(0);
    org.apache.hadoop.hdfs.protocol.ClientProtocol namenode = client.getClient().getNamenode();
    String holder = client.getClient().getClientName();
    org.apache.hadoop.io.EnumSetWritable<org.apache.hadoop.fs.CreateFlag> overwrite =
        new org.apache.hadoop.io.EnumSetWritable<>(java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.CREATE,
            org.apache.hadoop.fs.CreateFlag.OVERWRITE));
    org.apache.hadoop.fs.permission.FsPermission permission = new org.apache.hadoop.fs.permission.FsPermission(
        (short) 0644);
    long first = namenode.create("/own/open", permission, holder, overwrite, true, (short) 1, 1024,
        org.apache.hadoop.crypto.CryptoProtocolVersion.supported(), null, null).getFileId();
    long second = namenode.create("/own/open", permission, holder, overwrite, true, (short) 1, 1024,
        org.apache.hadoop.crypto.CryptoProtocolVersion.supported(), null, null).getFileId();
    assertTrue(second != first, "the open file was replaced by a new one");
    assertTrue(namenode.complete("/own/open", holder, null, second));
    try (MetadataStore store = CLUSTER.cluster().openStore()) {
      assertEquals("0", StoreQueries.query(store, "SELECT count(*) FROM lease_paths WHERE inode_id IN (" + first + ", "
          + second + ")", 1).rows().get(0).get(0), "no lease path left for either file");
    }
  }
}

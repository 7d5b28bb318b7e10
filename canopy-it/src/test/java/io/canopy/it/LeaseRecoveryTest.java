package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.fs.IdGenerator;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.leases.BlockRecoveryDispatcher;
import io.canopy.namenode.membership.NotLeaderException;
import io.canopy.namenode.ops.BlockRecoveryTask;
import io.canopy.namenode.ops.ReleaseLeaseOp;
import io.canopy.namenode.ops.ReleaseOutcome;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand.RecoveringBlock;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lease expiry and lease recovery on a real cluster (two namenodes, two datanodes, replication 2) with short limits:
 * writers that die mid-file, empty last blocks, recoverLease, create over an open file, live writers past the hard
 * limit, commitBlockSynchronization delivered more than once, and a leader crash in the middle of a recovery.
 */
class LeaseRecoveryTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final long HARD_LIMIT_SECONDS = 3;
  private static final long SOFT_LIMIT_MS = 1000;
  /** How often live test clients renew their leases (HDFS's client renews every 30 s, past our hard limit). */
  private static final long RENEWAL_MS = 300;
  private static final Duration RECOVERY_WAIT = Duration.ofSeconds(40);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(LeaseRecoveryTest::leaseSettings).nameNodes(2).dataNodes(2).awaitLeader()
      .startTimeout(Duration.ofSeconds(120)).build();
  private final List<FileSystem> writers = new ArrayList<>();

  /** Short limits, a fast lease monitor and elections, quick retries. */
  static void leaseSettings(Configuration conf) {
    conf.setLong(HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_KEY, HARD_LIMIT_SECONDS);
    conf.setLong(NameNodeConfig.LEASE_SOFT_LIMIT_MS, SOFT_LIMIT_MS);
    fastLeaseRecovery(conf);
    // A datanode reporting to a crashed namenode gives up quickly.
    conf.setInt("ipc.client.connect.max.retries", 2);
    conf.setLong("ipc.client.connect.retry.interval", 200);
  }

  /** A fast lease monitor, recovery and elections: the settings of every lease test (this, append, truncate). */
  static void fastLeaseRecovery(Configuration conf) {
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_LEASE_RECHECK_INTERVAL_MS_KEY, 200);
    conf.setLong(NameNodeConfig.LEASE_RECOVERY_TIMEOUT_MS, 8000);
    conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 200);
  }

  @AfterEach
  void closeWriters() {
    for (FileSystem writer : writers) {
      try {
        writer.close();
      } catch (IOException ignored) {
        // a writer whose file was taken over may fail to close: it is gone either way
      }
    }
    writers.clear();
  }

  @Test
  @Timeout(60)
  void aWriterThatDiesMidFileIsRecoveredToItsLastHflushedLength() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/dead-writer");
    DeadWriter dead = writeAndDie(CLUSTER.cluster(), 0, path, 3000, 700, 1);
    DistributedFileSystem reader = CLUSTER.cluster().fileSystem(0);
    assertFalse(reader.isFileClosed(path), "the dead writer's file stays open until its lease expires");

    awaitClosed(reader, path);
    assertEquals(3000, reader.getFileStatus(path).getLen(), "the file ends at the last hflush");
    assertArrayEquals(dead.flushed(), TestFiles.read(reader, path));
    long inode = dead.inodeId();
    List<List<String>> blocks = query("SELECT num_bytes, generation_stamp, recovery_id, state FROM blocks "
        + "WHERE inode_id = " + inode);
    assertEquals(1, blocks.size());
    assertEquals("3000", blocks.get(0).get(0));
    assertTrue(Long.parseLong(blocks.get(0).get(2)) > 0, "a recovery id was issued: " + blocks);
    assertEquals(blocks.get(0).get(2), blocks.get(0).get(1), "the block took the recovery id as its stamp");
    assertEquals(String.valueOf(BlockState.COMPLETE.code()), blocks.get(0).get(3));
    assertEquals(2, count("SELECT count(*) FROM replicas WHERE inode_id = " + inode), "both replicas recorded");
    assertEquals(0, count("SELECT count(*) FROM uc_replicas WHERE inode_id = " + inode));
    assertEquals(0, count("SELECT count(*) FROM lease_paths WHERE inode_id = " + inode));
    assertEquals(List.of(List.of("0", "")), query("SELECT CASE WHEN under_construction THEN 1 ELSE 0 END, "
        + "coalesce(client_name, '') FROM inodes WHERE id = " + inode));
    Await.until("the dead writer's lease row is deleted", Duration.ofSeconds(20),
        () -> count("SELECT count(*) FROM leases WHERE holder = '" + dead.holder() + "'") == 0);
    Await.until("the recovery holder's lease row is deleted once idle past the hard limit", Duration.ofSeconds(20),
        () -> count("SELECT count(*) FROM leases WHERE holder = '" + LeaseLimits.RECOVERY_HOLDER + "'") == 0);
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void emptyLastBlocksAreDroppedAndFilesWithoutBlocksClosedAtOnce() throws Exception {
    DistributedFileSystem client = CLUSTER.cluster().fileSystem(0);
    ClientProtocol namenode = client.getClient().getNamenode();
    // A writer that died right after create: no block at all.
    org.apache.hadoop.fs.Path noBlock = new org.apache.hadoop.fs.Path("/lease/empty/no-block");
    HdfsFileStatus noBlockStatus = rawCreate(namenode, noBlock, "DFSClient_dead_no_block");
    // A writer that died between addBlock and sending the block anything.
    org.apache.hadoop.fs.Path emptyOnly = new org.apache.hadoop.fs.Path("/lease/empty/only-block");
    HdfsFileStatus emptyOnlyStatus = rawCreate(namenode, emptyOnly, "DFSClient_dead_empty_block");
    LocatedBlock emptyBlock = namenode.addBlock(emptyOnly.toString(), "DFSClient_dead_empty_block", null, null,
        emptyOnlyStatus.getFileId(), null, null);
    assertEquals(2, emptyBlock.getLocations().length, "the empty block has a pipeline");
    // A writer that filled a block, was given the next one, and died before writing to it.
    org.apache.hadoop.fs.Path fullThenEmpty = new org.apache.hadoop.fs.Path("/lease/empty/full-then-empty");
    DistributedFileSystem writer = newClient(0);
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE, 2);
    FSDataOutputStream out = writer.create(fullThenEmpty, true, 4096, (short) 2, BLOCK_SIZE);
    out.write(data);
    out.hflush();
    LocatedBlock first = writer.getClient().getLocatedBlocks(fullThenEmpty.toString(), 0).getLastLocatedBlock();
    ExtendedBlock written = new ExtendedBlock(first.getBlock().getBlockPoolId(), first.getBlock().getBlockId(),
        BLOCK_SIZE, first.getBlock().getGenerationStamp());
    long fileId = writer.getClient().getFileInfo(fullThenEmpty.toString()).getFileId();
    LocatedBlock second = writer.getClient().getNamenode().addBlock(fullThenEmpty.toString(),
        writer.getClient().getClientName(), written, null, fileId, null, null);
    writer.getClient().closeOutputStreams(true);
    writer.close();

    for (org.apache.hadoop.fs.Path path : List.of(noBlock, emptyOnly, fullThenEmpty)) {
      awaitClosed(client, path);
    }
    assertEquals(0, client.getFileStatus(noBlock).getLen());
    assertEquals(0, client.getFileStatus(emptyOnly).getLen());
    assertEquals(0, count("SELECT count(*) FROM blocks WHERE inode_id = " + emptyOnlyStatus.getFileId()),
        "the empty block is gone");
    assertEquals(0, count("SELECT count(*) FROM blocks WHERE inode_id = " + noBlockStatus.getFileId()));
    assertEquals(BLOCK_SIZE, client.getFileStatus(fullThenEmpty).getLen());
    assertArrayEquals(data, TestFiles.read(client, fullThenEmpty));
    assertEquals(List.of(List.of(String.valueOf(first.getBlock().getBlockId()))),
        query("SELECT block_id FROM blocks WHERE inode_id = " + fileId), "only the full block is left");
    assertEquals(0, count("SELECT count(*) FROM block_lookup WHERE block_id IN ("
        + emptyBlock.getBlock().getBlockId() + ", " + second.getBlock().getBlockId() + ")"));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void recoverLeaseAnswersFalseWhileTheLastBlockIsRecoveredThenTrue() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/recover-lease");
    // The writer talks to the second namenode; so does the client taking over: the leader still does the work.
    DeadWriter dead = writeAndDie(CLUSTER.cluster(), 1, path, 5000, 100, 3);
    DistributedFileSystem second = CLUSTER.cluster().fileSystem(1);
    assertFalse(second.recoverLease(path), "the last block must be recovered first: not closed at once");
    assertFalse(second.isFileClosed(path));
    assertEquals(List.of(List.of(LeaseLimits.RECOVERY_HOLDER)),
        query("SELECT client_name FROM inodes WHERE id = " + dead.inodeId()), "the file moved to the recovery holder");
    assertEquals(List.of(List.of(LeaseLimits.RECOVERY_HOLDER)),
        query("SELECT holder FROM lease_paths WHERE inode_id = " + dead.inodeId()));

    Await.until("recoverLease answers true", RECOVERY_WAIT, () -> second.recoverLease(path));
    assertEquals(5000, second.getFileStatus(path).getLen());
    assertArrayEquals(dead.flushed(), TestFiles.read(second, path));
    assertTrue(CLUSTER.cluster().fileSystem(0).recoverLease(path), "a closed file: true at once");
    assertThrows(FileNotFoundException.class,
        () -> second.recoverLease(new org.apache.hadoop.fs.Path("/lease/recover-lease-missing")));
    assertThrows(FileNotFoundException.class, () -> second.recoverLease(new org.apache.hadoop.fs.Path("/lease")));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void createOverAnOpenFileFollowsTheWritersLease() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/create-over");
    DistributedFileSystem writer = newClient(0);
    String writerName = writer.getClient().getClientName();
    byte[] data = TestFiles.randomBytes(2000, 4);
    FSDataOutputStream out = writer.create(path, true, 4096, (short) 2, BLOCK_SIZE);
    out.write(data);
    out.hflush();
    DistributedFileSystem other = CLUSTER.cluster().fileSystem(0);

    writer.getClient().renewLease();
    RemoteException owned = assertThrows(RemoteException.class, () -> other.create(path, false));
    assertEquals(AlreadyBeingCreatedException.class.getName(), owned.getClassName());
    assertTrue(owned.getMessage().contains("because this file lease is currently owned by " + writerName),
        owned.getMessage());
    RemoteException again = assertThrows(RemoteException.class, () -> writer.create(path, false));
    assertEquals(AlreadyBeingCreatedException.class.getName(), again.getClassName());
    assertTrue(again.getMessage().contains(writerName + " is already the current lease holder."),
        again.getMessage());

    // The writer dies; past the soft limit (well before the hard limit) a create takes the file over.
    writer.getClient().renewLease();
    long diedAt = System.currentTimeMillis();
    writer.getClient().closeOutputStreams(true);
    Thread.sleep(Math.max(0, diedAt + SOFT_LIMIT_MS + 300 - System.currentTimeMillis()));
    RemoteException recovering = assertThrows(RemoteException.class, () -> other.create(path, false));
    assertEquals(RecoveryInProgressException.class.getName(), recovering.getClassName());
    assertTrue(recovering.getMessage().contains("Failed to CREATE_FILE " + path + " for "
        + other.getClient().getClientName()) && recovering.getMessage().contains(
        "because lease recovery is in progress. Try again later."), recovering.getMessage());

    awaitClosed(other, path);
    assertArrayEquals(data, TestFiles.read(other, path));
    assertThrows(FileAlreadyExistsException.class, () -> other.create(path, false));
    try (FSDataOutputStream replaced = other.create(path, true)) {
      replaced.write(7);
    }
    assertEquals(1, other.getFileStatus(path).getLen(), "overwrite still replaces a closed file");
  }

  @Test
  @Timeout(60)
  void aLiveWriterKeepsItsFilePastTheHardLimitAndItsIdleLeaseGoesAfterIt() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/live-writer");
    DistributedFileSystem writer = newClient(1);
    String holder = writer.getClient().getClientName();
    byte[] data = TestFiles.randomBytes(6000, 5);
    try (FSDataOutputStream out = writer.create(path, true, 4096, (short) 2, BLOCK_SIZE)) {
      out.write(data, 0, 3000);
      out.hflush();
      Thread.sleep(2 * HARD_LIMIT_SECONDS * 1000); // renewLease keeps the lease: the leader must not take the file
      out.write(data, 3000, 3000);
    }
    assertArrayEquals(data, TestFiles.read(writer, path));
    assertEquals(1, count("SELECT count(*) FROM leases WHERE holder = '" + holder + "'"),
        "closing a file leaves its holder's lease row (a concurrent create may rely on it)");
    Await.until("the idle lease is deleted past the hard limit", Duration.ofSeconds(20),
        () -> count("SELECT count(*) FROM leases WHERE holder = '" + holder + "'") == 0);
  }

  @Test
  @Timeout(60)
  void releasingALeaseIsFencedByTheLeaderTermAndSparesAHolderThatRenewed() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/fenced");
    DistributedFileSystem writer = newClient(0);
    String holder = writer.getClient().getClientName();
    byte[] data = TestFiles.randomBytes(1500, 9);
    try (FSDataOutputStream out = writer.create(path, true, 4096, (short) 2, BLOCK_SIZE)) {
      out.write(data, 0, 1000);
      out.hflush();
      long inode = writer.getClient().getFileInfo(path.toString()).getFileId();
      NameNode leader = CLUSTER.cluster().nameNode(0);
      long term = leader.election().leaderTerm().orElseThrow();
      NamespaceServices services = new NamespaceServices(CLUSTER.cluster().conf(), new IdGenerator(CLUSTER.store(), 1),
          System::currentTimeMillis, CLUSTER.store().identity());
      List<List<String>> before = fileRows(inode);
      // Listed as expired a moment ago, but renewed since: the leader leaves the file alone.
      ReleaseOutcome renewed = leader.runner().run(new ReleaseLeaseOp(services, inode, holder, 0, term));
      assertEquals(ReleaseOutcome.Kind.RENEWED, renewed.kind(), renewed.detail());
      // A namenode whose term is over writes nothing.
      assertThrows(NotLeaderException.class, () -> leader.runner().run(
          new ReleaseLeaseOp(services, inode, holder, Long.MAX_VALUE, term + 1)));
      assertEquals(before, fileRows(inode));
      out.write(data, 1000, 500);
    }
    assertArrayEquals(data, TestFiles.read(writer, path));
  }

  @Test
  @Timeout(60)
  void commitBlockSynchronizationDeliveredToBothNamenodesTakesEffectOnce() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/exactly-once");
    try (RecoveryGate gate = RecoveryGate.install()) {
      DeadWriter dead = writeAndDie(CLUSTER.cluster(), 0, path, 3000, 500, 6);
      DistributedFileSystem client = CLUSTER.cluster().fileSystem(0);
      assertFalse(client.recoverLease(path));
      // The leader issues a recovery id and hands the recovery to a datanode, which the gate holds.
      Await.until("a datanode starts the recovery", RECOVERY_WAIT, () -> gate.entered() > 0);
      List<String> block = query("SELECT block_id, generation_stamp, recovery_id FROM blocks WHERE inode_id = "
          + dead.inodeId()).get(0);
      long recoveryId = Long.parseLong(block.get(2));
      assertTrue(recoveryId > Long.parseLong(block.get(1)), "the recovery id exceeds the block's stamp: " + block);
      ExtendedBlock oldBlock = new ExtendedBlock(bpid(client, path), Long.parseLong(block.get(0)), 0,
          Long.parseLong(block.get(1)));
      List<String> storages = column("SELECT storage_id FROM uc_replicas WHERE inode_id = " + dead.inodeId()
          + " ORDER BY storage_id");
      assertEquals(2, storages.size());
      DatanodeID[] targets = datanodesOf(storages);

      // The same synchronization, as the datanode would send it, reaches both namenodes at once.
      ExecutorService threads = Executors.newFixedThreadPool(2);
      try {
        List<Future<Void>> calls = new ArrayList<>();
        for (int namenode = 0; namenode < 2; namenode++) {
          DatanodeProtocolClientSideTranslatorPB datanodeProtocol = datanodeProtocol(namenode);
          calls.add(threads.submit((Callable<Void>) () -> {
            try {
              datanodeProtocol.commitBlockSynchronization(oldBlock, recoveryId, 3000, true, false, targets,
                  storages.toArray(new String[0]));
            } finally {
              datanodeProtocol.close();
            }
            return null;
          }));
        }
        for (Future<Void> call : calls) {
          call.get(); // both succeed: the second finds the work done
        }
      } finally {
        threads.shutdownNow();
      }
      assertTrue(client.isFileClosed(path));
      List<List<String>> afterFirst = fileRows(dead.inodeId());
      assertEquals(List.of(List.of("0", "3000")), query("SELECT CASE WHEN under_construction THEN 1 ELSE 0 END, "
          + "size FROM inodes WHERE id = " + dead.inodeId()));
      assertEquals(2, count("SELECT count(*) FROM replicas WHERE inode_id = " + dead.inodeId()));

      // Once more through the RPC, a stale recovery id on the closed file included: nothing changes.
      try (DatanodeProtocolClientSideTranslatorPB again = datanodeProtocol(1)) {
        again.commitBlockSynchronization(oldBlock, recoveryId, 3000, true, false, targets,
            storages.toArray(new String[0]));
        again.commitBlockSynchronization(oldBlock, recoveryId - 1, 17, true, false, targets,
            storages.toArray(new String[0]));
        again.commitBlockSynchronization(new ExtendedBlock(oldBlock.getBlockPoolId(), 1L << 40, 0, 1), 5, 0, true,
            true, new DatanodeID[0], new String[0]); // deleting a block that is gone: a retry, accepted
        RemoteException unknown = assertThrows(RemoteException.class, () -> again.commitBlockSynchronization(
            new ExtendedBlock(oldBlock.getBlockPoolId(), 1L << 40, 0, 1), 5, 10, true, false, targets,
            storages.toArray(new String[0])));
        assertTrue(unknown.getMessage().contains("not found"), unknown.getMessage());
      }
      assertEquals(afterFirst, fileRows(dead.inodeId()));

      // The datanode's own recovery goes on and reports the same result a third time.
      gate.open();
      Await.until("the datanodes finalize the recovered replicas", RECOVERY_WAIT,
          () -> readable(client, path, dead.flushed()));
      assertEquals(afterFirst, fileRows(dead.inodeId()));
    }
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void aRecoveryNotCommittedInTimeIsReplacedByANewAttempt() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/stuck-primary");
    try (RecoveryGate gate = RecoveryGate.install(1)) { // the first primary never gets on with it
      DeadWriter dead = writeAndDie(CLUSTER.cluster(), 0, path, 2500, 10, 8);
      DistributedFileSystem client = CLUSTER.cluster().fileSystem(0);
      assertFalse(client.recoverLease(path));
      Await.until("the first primary holds the recovery", RECOVERY_WAIT, () -> gate.entered() > 0);
      long firstRecoveryId = count("SELECT recovery_id FROM blocks WHERE inode_id = " + dead.inodeId());
      assertTrue(firstRecoveryId > 0);
      // After the recovery timeout the leader issues a new recovery id to the other datanode, which finishes.
      awaitClosed(client, path);
      assertTrue(gate.entered() >= 2, "a second attempt reached a datanode");
      long finalStamp = count("SELECT generation_stamp FROM blocks WHERE inode_id = " + dead.inodeId());
      assertTrue(finalStamp > firstRecoveryId, "closed by a later attempt: stamp " + finalStamp + ", first recovery "
          + "id " + firstRecoveryId);
      assertArrayEquals(dead.flushed(), TestFiles.read(client, path));
    }
  }

  @Test
  @Timeout(60)
  void theDispatcherSendsEachAttemptOnceToItsPrimaryAndTriesAnotherPrimaryNext() throws Exception {
    List<List<String>> storages = query("SELECT datanode_uuid, storage_id FROM storages ORDER BY datanode_uuid");
    assertEquals(2, storages.size(), "one storage per datanode: " + storages);
    DatanodeRegistry registry = new DatanodeRegistry(CLUSTER.store(), CLUSTER.cluster().conf(),
        System::currentTimeMillis);
    registry.reload();
    long[] clock = {1_000_000};
    BlockRecoveryDispatcher dispatcher = new BlockRecoveryDispatcher(registry, "BP-test", 5_000, () -> clock[0]);
    Block block = new Block(77, 1_234, 0, 100, 1_001, BlockState.UNDER_RECOVERY, 5_001);
    BlockRecoveryTask task = new BlockRecoveryTask(77, "f", block,
        List.of(storages.get(0).get(1), storages.get(1).get(1)));
    long term = 3;
    dispatcher.dispatch(task, term);
    assertTrue(dispatcher.inFlight(77, term));
    assertFalse(dispatcher.inFlight(77, term + 1), "an attempt belongs to the term that issued it");
    List<RecoveringBlock> sentTo = new ArrayList<>();
    String first = primaryOf(dispatcher, storages, term, sentTo);
    assertEquals(1, sentTo.size());
    RecoveringBlock sent = sentTo.get(0);
    assertEquals(1_234, sent.getBlock().getBlockId());
    assertEquals(5_001, sent.getNewGenerationStamp());
    assertEquals(1_001, sent.getBlock().getGenerationStamp(), "the datanodes get the stamp before recovery");
    assertEquals(2, sent.getLocations().length, "every live datanode holding the block takes part");
    assertEquals(List.of(), recoveringBlocks(dispatcher, first, term), "sent once");

    clock[0] += 5_000;
    assertFalse(dispatcher.inFlight(77, term), "timed out");
    dispatcher.dispatch(task, term);
    String second = primaryOf(dispatcher, storages, term, new ArrayList<>());
    assertFalse(first.equals(second), "the next attempt goes to the other datanode");
    dispatcher.dispatch(task, term);
    assertEquals(first, primaryOf(dispatcher, storages, term, new ArrayList<>()),
        "once all were tried, all may be tried again");
    dispatcher.dispatch(task, term);
    assertEquals(List.of(), recoveringBlocks(dispatcher, second, term + 1), "nothing for another term");
    dispatcher.retainOnly(java.util.Set.of());
    assertEquals(0, dispatcher.size());
    assertEquals(List.of(), recoveringBlocks(dispatcher, second, term));
  }

  @Test
  @Timeout(120)
  void aRecoveryStartedUnderOneLeaderIsFinishedByTheNext() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    leaseSettings(conf);
    try (MiniCanopyCluster failover = MiniCanopyCluster.start(CLUSTER.directory().resolve("failover"), conf, 2, 2);
        MetadataStore failoverStore = failover.openStore(); RecoveryGate gate = RecoveryGate.install()) {
      Await.until("namenode 0 leads", Duration.ofSeconds(20), () -> failover.nameNode(0).election().isLeader());
      DistributedFileSystem client = failover.fileSystem(1);
      Await.until("namenode 1 sees both datanodes", Duration.ofSeconds(20),
          () -> client.getDataNodeStats(DatanodeReportType.LIVE).length == 2);
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/lease/failover");
      DeadWriter dead = writeAndDie(failover, 1, path, 4000, 300, 7);
      assertFalse(client.recoverLease(path));
      Await.until("the leader hands the recovery to a datanode", RECOVERY_WAIT, () -> gate.entered() > 0);
      long firstRecoveryId = Long.parseLong(StoreQueries.query(failoverStore,
          "SELECT recovery_id FROM blocks WHERE inode_id = " + dead.inodeId(), 10).rows().get(0).get(0));
      assertTrue(firstRecoveryId > 0);

      failover.crashNameNode(0);
      Await.until("namenode 1 leads", Duration.ofSeconds(20), () -> failover.nameNode(1).election().isLeader());
      gate.open();
      awaitClosed(client, path);
      assertEquals(4000, client.getFileStatus(path).getLen());
      assertArrayEquals(dead.flushed(), TestFiles.read(client, path));
      List<String> block = StoreQueries.query(failoverStore, "SELECT generation_stamp, recovery_id FROM blocks WHERE "
          + "inode_id = " + dead.inodeId(), 10).rows().get(0);
      assertEquals(block.get(1), block.get(0), "closed by a recovery: " + block);
      assertTrue(Long.parseLong(block.get(1)) >= firstRecoveryId);
      assertEquals("0", StoreQueries.query(failoverStore, "SELECT count(*) FROM lease_paths WHERE inode_id = "
          + dead.inodeId(), 10).rows().get(0).get(0));
      assertEquals(List.of(), NamespaceInvariants.violations(failoverStore));
    }
  }

  // ---- helpers ----

  /** A writer that died: what it hflushed, its client name, its file. */
  record DeadWriter(byte[] flushed, String holder, long inodeId) {
  }

  /**
   * A client of namenode {@code namenode} writes {@code flushed} bytes, hflushes, writes {@code unflushed} more (less
   * than a packet: they stay in the client) and dies: its streams are aborted (no complete) and it stops renewing.
   */
  private DeadWriter writeAndDie(MiniCanopyCluster on, int namenode, org.apache.hadoop.fs.Path path, int flushed,
      int unflushed, long seed) throws IOException {
    DistributedFileSystem writer = newClient(on, namenode);
    byte[] data = TestFiles.randomBytes(flushed + unflushed, seed);
    FSDataOutputStream out = writer.create(path, true, 4096, (short) 2, BLOCK_SIZE);
    out.write(data, 0, flushed);
    out.hflush();
    out.write(data, flushed, unflushed);
    String holder = writer.getClient().getClientName();
    long inodeId = writer.getClient().getFileInfo(path.toString()).getFileId();
    writer.getClient().renewLease();
    writer.getClient().closeOutputStreams(true);
    writer.close();
    return new DeadWriter(Arrays.copyOf(data, flushed), holder, inodeId);
  }

  private DistributedFileSystem newClient(int namenode) throws IOException {
    return newClient(CLUSTER.cluster(), namenode);
  }

  /** A client of its own (not the cached one) that renews its lease every {@link #RENEWAL_MS} while writing. */
  private DistributedFileSystem newClient(MiniCanopyCluster on, int namenode) throws IOException {
    DistributedFileSystem client = (DistributedFileSystem) FileSystem.newInstance(URI.create(on.uri(namenode)),
        new Configuration(on.conf()));
    client.getClient().getLeaseRenewer().setRenewalTime(RENEWAL_MS);
    writers.add(client);
    return client;
  }

  /**
   * The datanode whose heartbeat gets the attempt now in flight (asserting exactly one does); what it got is added
   * to {@code sent}.
   */
  private static String primaryOf(BlockRecoveryDispatcher dispatcher, List<List<String>> storages, long term,
      List<RecoveringBlock> sent) {
    List<String> primaries = new ArrayList<>();
    for (List<String> storage : storages) {
      List<DatanodeCommand> commands = new ArrayList<>();
      dispatcher.commandsFor(storage.get(0), term, commands);
      if (!commands.isEmpty()) {
        assertEquals(DatanodeProtocol.DNA_RECOVERBLOCK, commands.get(0).getAction());
        sent.addAll(((BlockRecoveryCommand) commands.get(0)).getRecoveringBlocks());
        primaries.add(storage.get(0));
      }
    }
    assertEquals(1, primaries.size(), "one primary per attempt: " + primaries);
    return primaries.get(0);
  }

  private static List<RecoveringBlock> recoveringBlocks(BlockRecoveryDispatcher dispatcher, String datanode,
      long term) {
    List<DatanodeCommand> commands = new ArrayList<>();
    dispatcher.commandsFor(datanode, term, commands);
    List<RecoveringBlock> blocks = new ArrayList<>();
    commands.forEach(c -> blocks.addAll(((BlockRecoveryCommand) c).getRecoveringBlocks()));
    return blocks;
  }

  private static HdfsFileStatus rawCreate(ClientProtocol namenode, org.apache.hadoop.fs.Path path, String holder)
      throws IOException {
    return namenode.create(path.toString(), FsPermission.getFileDefault(), holder,
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 2, BLOCK_SIZE,
        CryptoProtocolVersion.supported(), null, null);
  }

  private static DatanodeProtocolClientSideTranslatorPB datanodeProtocol(int namenode) throws IOException {
    return new DatanodeProtocolClientSideTranslatorPB(CLUSTER.cluster().nameNode(namenode).serviceAddress(),
        new Configuration(CLUSTER.cluster().conf()));
  }

  private static DatanodeID[] datanodesOf(List<String> storages) throws IOException {
    DatanodeID[] ids = new DatanodeID[storages.size()];
    for (int i = 0; i < ids.length; i++) {
      String uuid = column("SELECT datanode_uuid FROM storages WHERE storage_id = '" + storages.get(i) + "'").get(0);
      for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
        if (dataNode.getDatanodeUuid().equals(uuid)) {
          ids[i] = dataNode.getDatanodeId();
        }
      }
    }
    return ids;
  }

  private static String bpid(DistributedFileSystem client, org.apache.hadoop.fs.Path path) throws IOException {
    return client.getClient().getLocatedBlocks(path.toString(), 0).getLastLocatedBlock().getBlock().getBlockPoolId();
  }

  /** Everything recorded about one file, for before/after comparisons. */
  private static List<List<String>> fileRows(long inodeId) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    rows.addAll(query("SELECT 'inode', size, modification_time, CASE WHEN under_construction THEN 1 ELSE 0 END, "
        + "coalesce(client_name, '') FROM inodes WHERE id = " + inodeId));
    rows.addAll(query("SELECT 'block', block_id, num_bytes, generation_stamp, state, recovery_id FROM blocks "
        + "WHERE inode_id = " + inodeId + " ORDER BY block_index"));
    rows.addAll(query("SELECT 'replica', block_id, storage_id FROM replicas WHERE inode_id = " + inodeId
        + " ORDER BY block_id, storage_id"));
    rows.addAll(query("SELECT 'pipeline', block_id, storage_id FROM uc_replicas WHERE inode_id = " + inodeId));
    rows.addAll(query("SELECT 'lease path', holder FROM lease_paths WHERE inode_id = " + inodeId));
    rows.addAll(query("SELECT 'invalidation', datanode_uuid, generation_stamp FROM invalidated_blocks WHERE block_id "
        + "IN (SELECT block_id FROM blocks WHERE inode_id = " + inodeId + ") ORDER BY datanode_uuid"));
    return rows;
  }

  private static boolean readable(DistributedFileSystem client, org.apache.hadoop.fs.Path path, byte[] expected) {
    try {
      return Arrays.equals(expected, TestFiles.read(client, path));
    } catch (IOException e) {
      return false;
    }
  }

  private static void awaitClosed(DistributedFileSystem client, org.apache.hadoop.fs.Path path) throws Exception {
    Await.until(path + " is closed", RECOVERY_WAIT, () -> client.isFileClosed(path));
  }

  private static List<List<String>> query(String sql) throws IOException {
    return StoreQueries.rows(CLUSTER.store(), sql);
  }

  private static List<String> column(String sql) throws IOException {
    return StoreQueries.column(CLUSTER.store(), sql);
  }

  private static long count(String sql) throws IOException {
    return StoreQueries.count(CLUSTER.store(), sql);
  }
}

package io.canopy.bench.fullreport;

import io.canopy.bench.ServerCpu;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Full block reports of one large storage, the same calls on Canopy and on HDFS (issue 17): a datanode played over
 * the stock DatanodeProtocol ({@link ReportingDatanode}) receives {@code blocks} blocks of files written through the
 * ClientProtocol (addBlock, an incremental report per block, complete), then sends full reports of them, timed from
 * its side with the servers' CPU: first unchanged ones (a restart on an unchanged disk), then pairs that each differ
 * from what the namenode recorded by a share of the blocks: one lacks that share (lost), the next lists it again
 * (found). The reports are encoded before they are timed.
 */
public final class FullReportComparison {
  /** Blocks per file written to fill the storage. */
  static final int BLOCKS_PER_FILE = 1_000;
  static final long BLOCK_BYTES = 1L << 20;
  static final int WRITERS = 4;
  public static final String UNCHANGED = "unchanged";
  /** A report lacking the changed share of the blocks (lost while the datanode was down). */
  public static final String LOST = "lost";
  /** The next one, listing them again (found again). */
  public static final String FOUND = "found";
  private static final long HEARTBEAT_MS = 3_000;
  private static final int NOT_REPLICATED_YET_TRIES = 3_000;
  /** addBlock tries, 100 ms apart, while the namenode finds no datanode to place a block on. */
  private static final int NO_TARGET_TRIES = 300;

  /** One timed report: its kind, seconds from the datanode's side, the servers' CPU, the database's work if known. */
  public record Report(String kind, double seconds, ServerCpu.Usage cpu, long transactions, long statements) {
  }

  /** Counters of the database work of a system so far (Canopy's namenodes); null: the system has none. */
  public interface DatabaseWork {
    long[] transactionsAndStatements() throws IOException;
  }

  private FullReportComparison() {
  }

  /**
   * Fills one storage of a fresh system with {@code blocks} blocks, then times {@code reports} unchanged full reports
   * and {@code reports} pairs of changed ones (lacking {@code changedShare} of the blocks, then listing them again).
   */
  public static List<Report> run(String clientUri, InetSocketAddress datanodeProtocol, Configuration conf,
      Map<String, List<Long>> serverCpuRoots, DatabaseWork database, int blocks, int reports, double changedShare,
      long seed, PrintWriter progress, String system) throws Exception {
    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
    try (ReportingDatanode datanode = new ReportingDatanode(datanodeProtocol, conf, 1);
        DFSClient client = new DFSClient(URI.create(clientUri), conf)) {
      ReportingDatanode.announce(List.of(datanode), client.getNamenode(), ReportStorm.ANNOUNCE_BOUND_MS);
      heartbeats.scheduleWithFixedDelay(() -> {
        try {
          datanode.heartbeat();
        } catch (IOException e) {
          progress.println("  " + system + ": heartbeat failed: " + e);
        }
      }, HEARTBEAT_MS, HEARTBEAT_MS, TimeUnit.MILLISECONDS);
      long started = System.nanoTime();
      List<Block> stored = fill(client.getNamenode(), (located, block) -> datanode.received(List.of(block)),
          blocks, progress, system);
      progress.printf("  %s: %,d blocks written in %.0f s%n", system, stored.size(),
          (System.nanoTime() - started) / 1e9);
      progress.flush();
      BlockListAsLongs all = ReportingDatanode.encode(stored);
      datanode.fullReport(all); // untimed: the namenode's first full report of this storage
      List<Report> timed = new ArrayList<>();
      for (int i = 0; i < reports; i++) {
        timed.add(timedReport(UNCHANGED, all, datanode, serverCpuRoots, database));
      }
      List<Block> shuffled = new ArrayList<>(stored);
      Collections.shuffle(shuffled, new Random(seed));
      Set<Block> lost = new HashSet<>(shuffled.subList(0, (int) Math.round(stored.size() * changedShare)));
      BlockListAsLongs withoutLost = ReportingDatanode.encode(stored.stream().filter(b -> !lost.contains(b))
          .toList());
      for (int i = 0; i < reports; i++) {
        timed.add(timedReport(LOST, withoutLost, datanode, serverCpuRoots, database));
        timed.add(timedReport(FOUND, all, datanode, serverCpuRoots, database));
      }
      for (Report report : timed) {
        progress.printf("  %s: %s report of %,d blocks: %.3f s, server CPU %.3f s%n", system, report.kind(),
            stored.size(), report.seconds(), report.cpu().totalSeconds());
      }
      progress.flush();
      return timed;
    } finally {
      heartbeats.shutdownNow();
    }
  }

  private static Report timedReport(String kind, BlockListAsLongs listed, ReportingDatanode datanode,
      Map<String, List<Long>> serverCpuRoots, DatabaseWork database) throws IOException, InterruptedException {
    long[] workBefore = database == null ? null : settledWork(database);
    ServerCpu.Sample before = ServerCpu.sample(serverCpuRoots);
    long start = System.nanoTime();
    datanode.fullReport(listed);
    double seconds = (System.nanoTime() - start) / 1e9;
    ServerCpu.Usage cpu = ServerCpu.sample(serverCpuRoots).since(before);
    long[] workAfter = database == null ? null : settledWork(database);
    return new Report(kind, seconds, cpu, database == null ? 0 : workAfter[0] - workBefore[0],
        database == null ? 0 : workAfter[1] - workBefore[1]);
  }

  /** Canopy's namenodes write their counters every second: wait for the figures of what just ran. */
  private static long[] settledWork(DatabaseWork database) throws IOException, InterruptedException {
    Thread.sleep(1_100);
    return database.transactionsAndStatements();
  }

  /** Where a written block's replica goes: its datanode reports it received. */
  interface BlockSink {
    void received(LocatedBlock located, Block block) throws IOException;
  }

  /**
   * Writes files of {@link #BLOCKS_PER_FILE} blocks (replication 1) under /canopy-bench/full-report, each block
   * reported received at once by the datanode {@code sink} names; answers every block written.
   */
  static List<Block> fill(ClientProtocol namenode, BlockSink sink, int blocks, PrintWriter progress, String system)
      throws Exception {
    int files = (blocks + BLOCKS_PER_FILE - 1) / BLOCKS_PER_FILE;
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<List<Block>>> written = new ArrayList<>();
      for (int file = 0; file < files; file++) {
        int count = Math.min(BLOCKS_PER_FILE, blocks - file * BLOCKS_PER_FILE);
        String path = "/canopy-bench/full-report/f" + file;
        written.add(writers.submit(() -> writeFile(namenode, sink, path, count)));
      }
      List<Block> all = new ArrayList<>(blocks);
      for (Future<List<Block>> file : written) {
        all.addAll(file.get());
        if (all.size() % (10 * BLOCKS_PER_FILE) == 0) {
          progress.printf("  %s: %,d of %,d blocks written%n", system, all.size(), blocks);
          progress.flush();
        }
      }
      return all;
    } finally {
      writers.shutdownNow();
    }
  }

  private static List<Block> writeFile(ClientProtocol namenode, BlockSink sink, String path, int count)
      throws IOException, InterruptedException {
    String clientName = "bench-full-report-" + Thread.currentThread().getId();
    HdfsFileStatus status = namenode.create(path, FsPermission.getFileDefault(), clientName,
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)), true, (short) 1,
        BLOCK_BYTES, CryptoProtocolVersion.supported(), null, null);
    List<Block> blocks = new ArrayList<>(count);
    ExtendedBlock previous = null;
    for (int i = 0; i < count; i++) {
      LocatedBlock located = addBlock(namenode, path, clientName, previous, status.getFileId());
      previous = located.getBlock();
      previous.setNumBytes(BLOCK_BYTES);
      Block block = new Block(previous.getLocalBlock());
      sink.received(located, block);
      blocks.add(block);
    }
    for (int tries = 0; !namenode.complete(path, clientName, previous, status.getFileId()); tries++) {
      if (tries > NOT_REPLICATED_YET_TRIES) {
        throw new IOException("could not complete " + path);
      }
      Thread.sleep(10);
    }
    return blocks;
  }

  /** addBlock, again while the previous block waits for the incremental report (HDFS applies them in the background). */
  private static LocatedBlock addBlock(ClientProtocol namenode, String path, String clientName,
      ExtendedBlock previous, long fileId) throws IOException, InterruptedException {
    for (int tries = 0; ; tries++) {
      try {
        return namenode.addBlock(path, clientName, previous, null, fileId, null, null);
      } catch (RemoteException e) {
        // the namenode may not have taken in a datanode's first heartbeat (its storage) yet: no target at all
        boolean noTargetYet = e.getMessage() != null && e.getMessage().contains("could only be written to 0 of")
            && tries < NO_TARGET_TRIES;
        if (!noTargetYet && (!e.getClassName().endsWith("NotReplicatedYetException")
            || tries > NOT_REPLICATED_YET_TRIES)) {
          throw e;
        }
        Thread.sleep(noTargetYet ? 100 : 10);
      }
    }
  }
}

package io.canopy.bench.mix;

import com.google.common.base.Preconditions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * Fills one directory with empty files {@code f0 .. f(n-1)} through the ClientProtocol itself (create, then
 * complete with no block), as Hadoop's NNThroughputBenchmark creates files: no datanode is involved, so a directory of
 * 200,000 files takes minutes, not hours, and costs both systems the same two calls per file. Threads claim file
 * numbers from one counter, each with a client (and connection) of its own.
 */
public final class FlatDirectoryBuilder {
  /** More threads than this would only queue on 2-8 cores; the bound keeps a typo from starting thousands. */
  public static final int MAX_THREADS = 64;

  private final URI uri;
  private final Configuration conf;
  private final int threads;

  public FlatDirectoryBuilder(URI uri, Configuration conf, int threads) {
    Preconditions.checkArgument(threads >= 1 && threads <= MAX_THREADS, "builder threads must be within [1, %s], "
        + "got %s", MAX_THREADS, threads);
    this.uri = uri;
    this.conf = conf;
    this.threads = threads;
  }

  /** Creates {@code directory} (and its parents) holding {@code files} empty files; answers the seconds it took. */
  public double build(Path directory, int files, PrintWriter progress) throws IOException {
    Preconditions.checkArgument(files >= 0, "file count must not be negative, got %s", files);
    long start = System.nanoTime();
    List<DistributedFileSystem> clients = Collections.synchronizedList(new ArrayList<>());
    // a client per pool thread, made on its first file: each thread has a connection of its own
    ThreadLocal<DistributedFileSystem> client = new ThreadLocal<>();
    try (IndexPool pool = new IndexPool(threads, "flat-directory-builder")) {
      DistributedFileSystem first = connect();
      clients.add(first);
      if (!first.mkdirs(directory)) {
        throw new IOException("mkdirs " + directory + " on " + uri + " returned false");
      }
      pool.forEachIndex(files, index -> {
        if (client.get() == null) {
          client.set(connect());
          clients.add(client.get());
        }
        createEmpty(client.get(), new Path(directory, "f" + index).toUri().getPath());
      });
    } catch (IOException e) {
      throw new IOException("filling " + directory + " on " + uri + " failed: " + e, e);
    } finally {
      for (DistributedFileSystem each : clients) {
        each.close();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    progress.printf(Locale.ROOT, "    built %s: %,d files in %.1f s (%.0f files/s)%n", directory.toUri().getPath(),
        files, seconds, files / Math.max(seconds, 1e-9));
    progress.flush();
    return seconds;
  }

  private DistributedFileSystem connect() throws IOException {
    FileSystem fileSystem = FileSystem.newInstance(uri, conf);
    if (!(fileSystem instanceof DistributedFileSystem distributed)) {
      fileSystem.close();
      throw new IOException(uri + " is served by " + fileSystem.getClass().getName() + ", not an HDFS client: the "
          + "directory is built through the ClientProtocol");
    }
    return distributed;
  }

  private static void createEmpty(DistributedFileSystem client, String path) throws IOException {
    ClientProtocol namenode = client.getClient().getNamenode();
    String clientName = client.getClient().getClientName();
    HdfsFileStatus status = namenode.create(path, FsPermission.getFileDefault(), clientName,
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), false, client.getDefaultReplication(),
        client.getDefaultBlockSize(), CryptoProtocolVersion.supported(), null, null);
    if (!namenode.complete(path, clientName, null, status.getFileId())) {
      throw new IOException("complete " + path + " (no block) returned false");
    }
  }
}

package io.canopy.it.contract;

import io.canopy.client.CanopyFileSystem;
import io.canopy.it.MiniCanopyCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * One {@link MiniCanopyCluster} for every contract suite of the test JVM: HDFS starts a MiniDFSCluster per suite
 * class (per test for TestHDFSFileSystemContract); starting ours once keeps the eighteen suites to the time of their
 * tests. The first suite's {@code beforeAll} starts it into JUnit's root store, which closes it (namenode, datanodes,
 * database, clients, directory) when the whole run ends. Suites run one after another (surefire's default), so the
 * root-directory suite's deletes never meet another suite's files.
 */
public final class SharedContractCluster implements BeforeAllCallback {
  /** Three datanodes: files keep HDFS's default replication (3) without leaving every block under-replicated. */
  static final int DATANODES = 3;
  /** HDFS's contract cluster: 1 KB blocks (AbstractFSContractTestBase.TEST_FILE_LEN), so suites cross blocks. */
  static final int BLOCK_SIZE = 1024;

  private static final Namespace NAMESPACE = Namespace.create(SharedContractCluster.class);
  private static volatile Running running;

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Running.class, key -> Running.start(), Running.class);
  }

  /** The shared client of the cluster (the test file system of every contract suite). */
  static FileSystem fileSystem() {
    return current().fileSystem;
  }

  /** The shared Canopy client of the cluster ({@code CanopyFileSystem}, the {@code CanopyClientContract*} suites'). */
  static FileSystem canopyFileSystem() {
    return current().canopyFileSystem;
  }

  /** The shared WebHDFS client of the cluster ({@code webhdfs://} to the namenode's HTTP server). */
  static FileSystem webHdfsFileSystem() {
    return current().webHdfsFileSystem;
  }

  /** A new client of the cluster with its own configuration changes; the caller closes it. */
  static FileSystem newClient(Consumer<Configuration> settings) throws IOException {
    return current().newClient(settings);
  }

  private static Running current() {
    Running now = running;
    if (now == null) {
      throw new IllegalStateException("no shared Canopy cluster: annotate the suite with "
          + "@ExtendWith(SharedContractCluster.class)");
    }
    return now;
  }

  /** The started cluster, held by the root store until the run ends. */
  private static final class Running implements ExtensionContext.Store.CloseableResource {
    private final Path directory;
    private final MiniCanopyCluster cluster;
    private final FileSystem fileSystem;
    private final FileSystem canopyFileSystem;
    private final FileSystem webHdfsFileSystem;

    private Running(Path directory, MiniCanopyCluster cluster) throws IOException {
      this.directory = directory;
      this.cluster = cluster;
      this.fileSystem = cluster.fileSystem();
      this.canopyFileSystem = newClient(conf -> conf.set("fs.hdfs.impl", CanopyFileSystem.class.getName()));
      this.webHdfsFileSystem = FileSystem.newInstance(URI.create("webhdfs://127.0.0.1:"
          + cluster.nameNode(0).httpAddress().getPort()), new Configuration(cluster.conf()));
    }

    static Running start() {
      Path directory = null;
      try {
        directory = Files.createTempDirectory("canopy-contract");
        Configuration conf = MiniCanopyCluster.testConfiguration();
        conf.setLong("dfs.blocksize", BLOCK_SIZE);
        MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, DATANODES);
        try {
          Running started = new Running(directory, cluster);
          running = started;
          return started;
        } catch (IOException | RuntimeException e) {
          cluster.close();
          throw e;
        }
      } catch (IOException e) {
        deleteQuietly(directory);
        throw new UncheckedIOException("could not start the shared contract cluster", e);
      } catch (RuntimeException e) {
        deleteQuietly(directory);
        throw e;
      }
    }

    FileSystem newClient(Consumer<Configuration> settings) throws IOException {
      Configuration conf = new Configuration(cluster.conf());
      settings.accept(conf);
      return FileSystem.newInstance(URI.create(cluster.uri()), conf);
    }

    @Override
    public void close() throws IOException {
      running = null;
      try {
        canopyFileSystem.close();
        webHdfsFileSystem.close();
        cluster.close(); // closes the shared stock client too
      } finally {
        deleteQuietly(directory);
      }
    }
  }

  private static void deleteQuietly(Path directory) {
    if (directory == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // a leftover temporary directory is harmless; the cluster itself is stopped
    }
  }
}

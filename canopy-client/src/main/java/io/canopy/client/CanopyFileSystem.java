package io.canopy.client;

import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.UnresolvedLinkException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.CanopyStreamAccess;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RpcNoSuchProtocolException;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canopy's {@code hdfs://} file system (design 016): HDFS's own client, with small files written and read in one
 * namenode call each. A file created or appended through {@code create}, {@code createNonRecursive} or {@code append}
 * keeps its bytes in memory up to the namenode's threshold ({@code canopy.smallfiles.max-bytes}) and closes with them
 * in one call that stores them in the database ({@link SmallFileOutputStream}); {@code open} asks for the located
 * blocks and, for a file stored in the database, its bytes in the same call. Everything else is
 * {@link DistributedFileSystem}'s. Registered as {@code fs.hdfs.impl} in the client configuration {@code canopy up}
 * writes.
 */
public class CanopyFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(CanopyFileSystem.class);
  private CanopyClientProxies.Handle canopy;
  /** The namenode's threshold, asked once; -1 until then. 0: the namenode stores no small files. */
  private volatile long maxBytes = -1;
  private boolean verifyChecksum = true;
  /** Small-file streams not closed yet: closing the file system closes them first, as HDFS's closes its streams. */
  private final Set<SmallFileOutputStream> openStreams = ConcurrentHashMap.newKeySet();

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    this.canopy = CanopyClientProxies.create(getConf(), uri);
  }

  /** The namenode's threshold; 0 when it stores no small files or does not speak Canopy's protocol. */
  long smallFileMaxBytes() throws IOException {
    long known = maxBytes;
    if (known < 0) {
      try {
        known = canopy.calls().smallFileMaxBytes();
      } catch (RpcNoSuchProtocolException notCanopy) {
        known = 0; // a namenode without Canopy's protocol (an HDFS namenode): the stock paths only
      }
      maxBytes = known;
    }
    return known;
  }

  @Override
  public void setVerifyChecksum(boolean verify) {
    super.setVerifyChecksum(verify);
    this.verifyChecksum = verify;
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags, int bufferSize,
      short replication, long blockSize, Progressable progress, ChecksumOpt checksumOpt) throws IOException {
    return small(f, super.create(f, permission, flags, bufferSize, replication, blockSize, progress, checksumOpt),
        0);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    return small(f, super.createNonRecursive(f, permission, flags, bufferSize, replication, blockSize, progress), 0);
  }

  @Override
  public FSDataOutputStream append(Path f, EnumSet<CreateFlag> flags, int bufferSize, Progressable progress)
      throws IOException {
    FSDataOutputStream out = super.append(f, flags, bufferSize, progress);
    // NEW_BLOCK asks for a block of its own on datanodes
    return flags.contains(CreateFlag.NEW_BLOCK) ? out : small(f, out, out.getPos());
  }

  /** {@code out} (a stock create's or append's stream) keeping the file in memory while it may stay small. */
  private FSDataOutputStream small(Path f, FSDataOutputStream out, long appendAt) throws IOException {
    try {
      long threshold = smallFileMaxBytes();
      if (threshold <= appendAt) {
        return out;
      }
      String src = CanopyStreamAccess.pathName(this, fixRelativePart(f));
      SmallFileOutputStream created = new SmallFileOutputStream(out, canopy.calls(), src,
          getClient().getClientName(), appendAt, threshold, statistics, openStreams::remove);
      openStreams.add(created);
      // no statistics here: the small-file stream counts what it stores, the stock stream what goes through it
      return new FSDataOutputStream(created, null, appendAt);
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (smallFileMaxBytes() == 0) {
      return super.open(f, bufferSize);
    }
    Path absolute = fixRelativePart(f);
    String src = CanopyStreamAccess.pathName(this, absolute);
    SmallFileRead read;
    try {
      read = canopy.calls().readSmallFile(src, 0, getClient().getConf().getPrefetchSize());
    } catch (UnresolvedLinkException symlink) {
      return super.open(f, bufferSize); // HDFS's open resolves the link
    }
    statistics.incrementReadOps(1);
    if (read.inDatabase()) {
      return new FSDataInputStream(new SmallFileInputStream(src, read.data(), statistics));
    }
    return getClient().createWrappedInputStream(CanopyStreamAccess.open(getClient(), src, verifyChecksum,
        read.blocks()));
  }

  @Override
  public void close() throws IOException {
    for (SmallFileOutputStream open : List.copyOf(openStreams)) {
      try {
        open.close(); // its bytes are in memory only: HDFS's close of the file system would lose them
      } catch (IOException e) {
        LOG.error("Failed to close file {} while closing {}", open.src(), getUri(), e); // as DFSClient logs it
      }
    }
    try {
      super.close();
    } finally {
      if (canopy != null) {
        canopy.close();
      }
    }
  }
}

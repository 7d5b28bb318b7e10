package io.canopy.client;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.hdfs.CanopyStreamAccess;
import org.apache.hadoop.hdfs.DFSOutputStream;

/**
 * A write stream that keeps a small file's bytes in memory and closes the file with them in one namenode call,
 * Canopy's completeSmall, which stores them in the database (design 016). Underneath is the stock stream HDFS's
 * create or append opened (the file exists and is leased from that call on, as in HDFS); nothing reaches it, and no
 * datanode is contacted, unless the file grows past the threshold, the writer calls hflush/hsync, or the namenode
 * declines the bytes: the buffer then goes to it first and every later byte after it, through datanodes.
 */
final class SmallFileOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  private final FSDataOutputStream pipeline;
  private final DFSOutputStream pipelineStream;
  private final CanopyClientProtocol calls;
  private final String src;
  private final String clientName;
  private final long appendAt;
  /** The bytes this stream may keep: the threshold less what the file held before. */
  private final long capacity;
  private byte[] buffer = new byte[256];
  private int buffered;
  /** True once the bytes go through {@link #pipeline}. */
  private boolean switched;
  private boolean closed;
  /** Why the close failed: every later call fails with it, as HDFS's stream does. */
  private IOException failure;
  private final FileSystem.Statistics statistics;
  /** Told when the stream is closed (its file system stops tracking it). */
  private final Consumer<SmallFileOutputStream> onClose;

  /**
   * @param pipeline the stock stream of the file's create or append, whose wrapped stream is a DFSOutputStream
   * @param appendAt the bytes the file held when it was opened (0 for a new file)
   * @param maxBytes the namenode's threshold
   */
  SmallFileOutputStream(FSDataOutputStream pipeline, CanopyClientProtocol calls, String src, String clientName,
      long appendAt, long maxBytes, FileSystem.Statistics statistics, Consumer<SmallFileOutputStream> onClose) {
    this.statistics = statistics;
    this.onClose = onClose;
    this.pipeline = pipeline;
    this.pipelineStream = (DFSOutputStream) pipeline.getWrappedStream();
    this.calls = calls;
    this.src = src;
    this.clientName = clientName;
    this.appendAt = appendAt;
    this.capacity = maxBytes - appendAt;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    checkOpen();
    if (switched || buffered + 1L > capacity || buffered == buffer.length) {
      write(new byte[] {(byte) b}, 0, 1); // the rare paths: switching, or growing the buffer
      return;
    }
    buffer[buffered++] = (byte) b;
  }

  @Override
  public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
    checkOpen();
    if (switched) {
      pipeline.write(bytes, offset, length);
      return;
    }
    if (buffered + (long) length > capacity) {
      switchToPipeline();
      pipeline.write(bytes, offset, length);
      return;
    }
    if (buffered + length > buffer.length) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(capacity, Math.max(buffer.length * 2L, buffered + length)));
    }
    System.arraycopy(bytes, offset, buffer, buffered, length);
    buffered += length;
  }

  /** Sends the buffered bytes to the stock stream; from now on the file is written through datanodes. */
  private void switchToPipeline() throws IOException {
    switched = true;
    pipeline.write(buffer, 0, buffered);
    buffer = null;
  }

  @Override
  public synchronized void flush() throws IOException {
    checkOpen();
    if (switched) {
      pipeline.flush(); // as the stock stream: a plain flush promises nothing about visibility
    }
  }

  @Override
  public synchronized void hflush() throws IOException {
    checkOpen();
    if (!switched) {
      switchToPipeline();
    }
    pipeline.hflush();
  }

  @Override
  public synchronized void hsync() throws IOException {
    checkOpen();
    if (!switched) {
      switchToPipeline();
    }
    pipeline.hsync();
  }

  /** The file's path, for messages. */
  String src() {
    return src;
  }

  @Override
  public boolean hasCapability(String capability) {
    return pipeline.hasCapability(capability);
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      if (failure != null) {
        throw failure;
      }
      return;
    }
    closed = true;
    try {
      finish();
    } catch (IOException e) {
      failure = e;
      throw e;
    } finally {
      onClose.accept(this);
    }
  }

  private void finish() throws IOException {
    if (switched || (buffered == 0 && appendAt == 0)) {
      pipeline.close(); // an empty new file closes as HDFS closes it: complete, no block
      return;
    }
    boolean stored;
    try {
      stored = calls.completeSmall(src, clientName, pipelineStream.getFileId(), appendAt,
          Arrays.copyOf(buffer, buffered));
    } catch (IOException | RuntimeException e) {
      CanopyStreamAccess.abandon(pipelineStream); // the file stays open; its lease lapses as a crashed writer's
      throw e;
    }
    if (stored) {
      CanopyStreamAccess.abandon(pipelineStream);
      if (statistics != null) {
        statistics.incrementBytesWritten(buffered); // the stock stream counts only what goes through it
      }
      return;
    }
    switchToPipeline(); // declined (the namenode's threshold or the block size is lower): through datanodes
    pipeline.close();
  }

  private void checkOpen() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (closed) {
      throw new IOException("Stream closed: " + src);
    }
  }
}

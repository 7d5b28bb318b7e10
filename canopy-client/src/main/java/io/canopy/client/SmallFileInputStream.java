package io.canopy.client;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A small file's bytes, returned with its metadata by readSmallFile (design 016), read as HDFS's input stream reads
 * a file: seekable within the file (a seek before 0 or past the end fails with HDFS's EOFException), positioned and
 * byte-buffer reads, reads after close refused.
 */
final class SmallFileInputStream extends FSInputStream
    implements ByteBufferReadable, ByteBufferPositionedReadable, CanUnbuffer, StreamCapabilities {
  private final String src;
  private final byte[] data;
  private final FileSystem.Statistics statistics;
  private int position;
  private volatile boolean closed;

  /** {@code statistics}: the file system's, counting the bytes read (null: none). */
  SmallFileInputStream(String src, byte[] data, FileSystem.Statistics statistics) {
    this.src = src;
    this.data = data;
    this.statistics = statistics;
  }

  private int counted(int n) {
    if (n > 0 && statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return n;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + target + " in " + src);
    }
    if (target > data.length) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + target + " in " + src + " of "
          + data.length + " bytes");
    }
    position = (int) target;
  }

  @Override
  public synchronized long getPos() {
    return position;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false; // the database is its one source
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    if (position >= data.length) {
      return -1;
    }
    counted(1);
    return data[position++] & 0xff;
  }

  @Override
  public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, buffer, offset, length);
    if (length == 0) {
      return 0;
    }
    int n = Math.min(length, data.length - position);
    if (n <= 0) {
      return -1;
    }
    System.arraycopy(data, position, buffer, offset, n);
    position += n;
    return counted(n);
  }

  @Override
  public int read(long at, byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    validatePositionedReadArgs(at, buffer, offset, length);
    if (length == 0) {
      return 0;
    }
    if (at >= data.length) {
      return -1;
    }
    int n = (int) Math.min(length, data.length - at);
    System.arraycopy(data, (int) at, buffer, offset, n);
    return counted(n);
  }

  @Override
  public synchronized int read(ByteBuffer buffer) throws IOException {
    checkOpen();
    int n = Math.min(buffer.remaining(), data.length - position);
    if (n <= 0) {
      return buffer.remaining() == 0 ? 0 : -1;
    }
    buffer.put(data, position, n);
    position += n;
    return counted(n);
  }

  @Override
  public int read(long at, ByteBuffer buffer) throws IOException {
    checkOpen();
    if (at < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + at + " in " + src);
    }
    int n = (int) Math.min(buffer.remaining(), Math.max(0, data.length - at));
    if (n <= 0) {
      return buffer.remaining() == 0 ? 0 : -1;
    }
    buffer.put(data, (int) at, n);
    return counted(n);
  }

  @Override
  public void readFully(long at, ByteBuffer buffer) throws IOException {
    int wanted = buffer.remaining();
    if (at < 0 || at + wanted > data.length) {
      throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + ": " + wanted + " bytes at " + at + " in "
          + src + " of " + data.length + " bytes");
    }
    read(at, buffer);
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    long skipped = Math.max(0, Math.min(n, data.length - position));
    position += (int) skipped;
    return skipped;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return data.length - position;
  }

  @Override
  public void unbuffer() {
    // nothing is held beyond the bytes themselves
  }

  @Override
  public boolean hasCapability(String capability) {
    return switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.READBYTEBUFFER, StreamCapabilities.PREADBYTEBUFFER, StreamCapabilities.UNBUFFER -> true;
      default -> false;
    };
  }

  @Override
  public void close() {
    closed = true;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + src);
    }
  }
}

package io.canopy.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/** Keeps two commands that start or stop processes (up, down, format) from working on one directory at once. */
public final class ClusterLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private ClusterLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  public static ClusterLock acquire(ClusterLayout layout) throws IOException {
    Files.createDirectories(layout.runDir());
    FileChannel channel = FileChannel.open(layout.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new CliException("Another canopy command (up, down or format) is working on " + layout.root()
          + " (it holds " + layout.lockFile() + "); try again when it has finished");
    }
    return new ClusterLock(channel, lock);
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}

package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How many entries followed the pages this namenode listed last, so the next page of the same listing knows its own
 * count without counting (HDFS's remaining entries): a client pages through a directory with the last name of one
 * page as the start point of the next. An entry holds only while the directory is the same (id, children count and
 * modification time, which every change of its children moves); otherwise, and for a page another namenode served
 * before, the count is read. At most {@link #MAX_CURSORS} listings are remembered, the least recently used
 * forgotten first.
 */
public final class ListingCursors {
  /** Listings in progress remembered at most (each a few dozen bytes). */
  static final int MAX_CURSORS = 10_000;

  private record Key(String directory, String lastName) {
  }

  private record Cursor(long directoryId, long childrenCount, long modificationTime, long remaining) {
  }

  private final Map<Key, Cursor> cursors = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Cursor> eldest) {
      return size() > MAX_CURSORS;
    }
  };

  /** The entries after {@code startAfter} in {@code directory} (listed at {@code path}), when a page ended there. */
  synchronized OptionalLong remainingAfter(String path, String startAfter, Inode directory) {
    Cursor cursor = cursors.remove(new Key(path, startAfter)); // a listing goes forward: used once
    if (cursor == null || cursor.directoryId() != directory.id() || cursor.childrenCount() != directory.childrenCount()
        || cursor.modificationTime() != directory.modificationTime()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(cursor.remaining());
  }

  /** A page of {@code directory} ended at {@code lastName} with {@code remaining} entries after it. */
  synchronized void remember(String path, String lastName, Inode directory, long remaining) {
    cursors.put(new Key(path, lastName), new Cursor(directory.id(), directory.childrenCount(),
        directory.modificationTime(), remaining));
  }
}

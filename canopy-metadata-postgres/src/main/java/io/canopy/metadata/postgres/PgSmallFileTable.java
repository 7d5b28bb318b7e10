package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.SmallFileTable;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Small files' bytes in two tiers (design 016): at most {@link #INLINE_MAX_BYTES} in one row of
 * {@code small_file_inline}, larger ones in chunks of {@link #CHUNK_BYTES} in {@code small_file_chunks}. A read is
 * one statement over both tiers; a put clears both before it writes one.
 */
final class PgSmallFileTable implements SmallFileTable, BufferedTable {
  /** The largest file kept in the inline tier ([SmallFiles] s.5: files no larger than their metadata, 1 KB). */
  static final int INLINE_MAX_BYTES = 1024;
  /** The largest chunk of the chunked tier ([SmallFiles] s.5.1 chose 8 KB on NDB). */
  static final int CHUNK_BYTES = 8192;

  /** Pending writes per file: its new bytes, or null for a delete. */
  private final Map<Long, byte[]> pending = new LinkedHashMap<>();
  /** Files whose bytes all go; sorted, so concurrent deletes lock rows in one order. */
  private final TreeSet<Long> cleared = new TreeSet<>();
  private final Jdbc jdbc;

  PgSmallFileTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /** One row of either tier: the inline row has chunk -1. */
  private record Piece(int chunk, byte[] data) {
  }

  @Override
  public Optional<byte[]> get(long inodeId) throws StoreException {
    List<Piece> pieces = jdbc.query("SELECT -1, data FROM small_file_inline WHERE inode_id = ? UNION ALL "
        + "SELECT chunk_index, data FROM small_file_chunks WHERE inode_id = ? ORDER BY 1", s -> {
          s.setLong(1, inodeId);
          s.setLong(2, inodeId);
        }, r -> new Piece(r.getInt(1), r.getBytes(2)));
    if (pieces.isEmpty()) {
      return Optional.empty();
    }
    if (pieces.size() == 1) {
      return Optional.of(pieces.get(0).data());
    }
    ByteArrayOutputStream whole = new ByteArrayOutputStream(pieces.size() * CHUNK_BYTES);
    for (int i = 0; i < pieces.size(); i++) {
      Piece piece = pieces.get(i);
      if (piece.chunk() != i) {
        throw new StoreException("invariant: the small file of inode " + inodeId + " has chunk " + piece.chunk()
            + " where chunk " + i + " belongs (rows in both tiers, or a chunk missing)");
      }
      whole.writeBytes(piece.data());
    }
    return Optional.of(whole.toByteArray());
  }

  @Override
  public void put(long inodeId, byte[] data) {
    pending.put(inodeId, data.clone());
  }

  @Override
  public void delete(long inodeId) {
    pending.put(inodeId, null);
  }

  @Override
  public void deleteOfInodes(Collection<Long> inodeIds) {
    cleared.addAll(inodeIds);
    // the clearing statements run first at flush: writes queued before them for these files are superseded
    pending.keySet().removeIf(inodeIds::contains);
  }

  @Override
  public void flush() {
    TreeSet<Long> emptied = new TreeSet<>(cleared);
    emptied.addAll(pending.keySet()); // a put replaces the file's bytes in whichever tier they were
    if (!emptied.isEmpty()) {
      List<Long[]> ids = Collections.singletonList(emptied.toArray(new Long[0]));
      for (String table : List.of("small_file_inline", "small_file_chunks")) {
        jdbc.batch("DELETE FROM " + table + " WHERE inode_id = ANY(?)", ids, (s, all) ->
            s.setArray(1, s.getConnection().createArrayOf("bigint", all)));
      }
    }
    List<Map.Entry<Long, byte[]>> inline = new ArrayList<>();
    List<Chunk> chunks = new ArrayList<>();
    pending.forEach((inodeId, data) -> {
      if (data == null) {
        return;
      }
      if (data.length <= INLINE_MAX_BYTES) {
        inline.add(Map.entry(inodeId, data));
      } else {
        for (int from = 0, index = 0; from < data.length; from += CHUNK_BYTES, index++) {
          chunks.add(new Chunk(inodeId, index, Arrays.copyOfRange(data, from, Math.min(data.length,
              from + CHUNK_BYTES))));
        }
      }
    });
    jdbc.batch("INSERT INTO small_file_inline (inode_id, data) VALUES (?, ?)", inline, (s, row) -> {
      s.setLong(1, row.getKey());
      s.setBytes(2, row.getValue());
    });
    jdbc.batch("INSERT INTO small_file_chunks (inode_id, chunk_index, data) VALUES (?, ?, ?)", chunks, (s, c) -> {
      s.setLong(1, c.inodeId());
      s.setInt(2, c.index());
      s.setBytes(3, c.data());
    });
    clear();
  }

  private record Chunk(long inodeId, int index, byte[] data) {
  }

  @Override
  public void clear() {
    pending.clear();
    cleared.clear();
  }
}

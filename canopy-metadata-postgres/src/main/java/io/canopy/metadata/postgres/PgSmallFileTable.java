package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.SmallFileTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Small files' bytes in two tiers (design 016): at most {@link #INLINE_MAX_BYTES} in {@code small_file_inline},
 * larger ones as one out-of-line value in {@code small_file_data}. A read is one statement over both tiers; a put
 * clears both before it writes one, an insert (a file with no bytes yet) writes one only.
 */
final class PgSmallFileTable implements SmallFileTable, BufferedTable {
  /** The largest file kept in the inline tier ([SmallFiles] s.5: files no larger than their metadata, 1 KB). */
  static final int INLINE_MAX_BYTES = 1024;
  private static final List<String> TIERS = List.of("small_file_inline", "small_file_data");

  /** Pending writes per file: its new bytes, or null for a delete. */
  private final Map<Long, byte[]> pending = new LinkedHashMap<>();
  /** Files of {@link #pending} that hold no bytes yet: their insert needs no clearing first. */
  private final Set<Long> fresh = new HashSet<>();
  /** Files whose bytes all go; sorted, so concurrent deletes lock rows in one order. */
  private final TreeSet<Long> cleared = new TreeSet<>();
  private final Jdbc jdbc;

  PgSmallFileTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /** A file's bytes from either tier: at most one row. */
  static Jdbc.Part<byte[]> getPart(long inodeId) {
    return new Jdbc.Part<>("SELECT data FROM small_file_inline WHERE inode_id = ? UNION ALL "
        + "SELECT data FROM small_file_data WHERE inode_id = ?", s -> {
          s.setLong(1, inodeId);
          s.setLong(2, inodeId);
        }, r -> r.getBytes(1));
  }

  /** The bytes of {@link #getPart}'s rows, checking that a file has them in one tier at most. */
  static Optional<byte[]> single(long inodeId, List<byte[]> rows) {
    if (rows.size() > 1) {
      throw new IllegalStateException("invariant: the small file of inode " + inodeId + " has rows in both tiers");
    }
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  @Override
  public Optional<byte[]> get(long inodeId) throws StoreException {
    return single(inodeId, jdbc.run(getPart(inodeId)));
  }

  @Override
  public void put(long inodeId, byte[] data) {
    pending.put(inodeId, data.clone());
    fresh.remove(inodeId);
  }

  @Override
  public void insert(long inodeId, byte[] data) {
    boolean written = pending.containsKey(inodeId) || cleared.contains(inodeId);
    pending.put(inodeId, data.clone());
    if (!written) {
      fresh.add(inodeId);
    }
  }

  @Override
  public void delete(long inodeId) {
    pending.put(inodeId, null);
    fresh.remove(inodeId);
  }

  @Override
  public void deleteOfInodes(Collection<Long> inodeIds) {
    cleared.addAll(inodeIds);
    // the clearing statements run first at flush: writes queued before them for these files are superseded
    pending.keySet().removeIf(inodeIds::contains);
    fresh.removeIf(inodeIds::contains);
  }

  @Override
  public void flush() {
    TreeSet<Long> emptied = new TreeSet<>(cleared);
    for (Long inodeId : pending.keySet()) {
      if (!fresh.contains(inodeId)) {
        emptied.add(inodeId); // a put replaces the file's bytes in whichever tier they were
      }
    }
    for (String tier : TIERS) {
      jdbc.deleteWhereAny(tier, "inode_id", emptied);
    }
    List<Map.Entry<Long, byte[]>> inline = new ArrayList<>();
    List<Map.Entry<Long, byte[]>> larger = new ArrayList<>();
    pending.forEach((inodeId, data) -> {
      if (data != null) {
        (data.length <= INLINE_MAX_BYTES ? inline : larger).add(Map.entry(inodeId, data));
      }
    });
    for (int tier = 0; tier < TIERS.size(); tier++) {
      jdbc.batch("INSERT INTO " + TIERS.get(tier) + " (inode_id, data) VALUES (?, ?)", tier == 0 ? inline : larger,
          (s, row) -> {
            s.setLong(1, row.getKey());
            s.setBytes(2, row.getValue());
          });
    }
    clear();
  }

  @Override
  public void clear() {
    pending.clear();
    fresh.clear();
    cleared.clear();
  }
}

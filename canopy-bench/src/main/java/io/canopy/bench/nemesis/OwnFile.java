package io.canopy.bench.nemesis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one workload client knows of a file that only it changes: the file's tokens (or that it is absent) as of its
 * last acknowledged operation or read, and the operations whose outcome it never learned since. A read then must be
 * explained by some of those in doubt, applied in order, each wholly or (a write that never completed) as nothing but
 * a file created empty or garbage bytes; anything else is a lost acknowledged operation or a phantom.
 */
final class OwnFile {
  /** An operation in doubt. */
  record Pending(FsOperation.Kind kind, long token) {
  }

  private final String path;
  /** The file's tokens, or null when it is absent; meaningful when no operation is pending. */
  private List<Long> known;
  private long garbageBytes;
  private final List<Pending> pending = new ArrayList<>();

  OwnFile(String path) {
    this.path = path;
  }

  String path() {
    return path;
  }

  boolean certain() {
    return pending.isEmpty();
  }

  /** Whether the file exists, when {@link #certain}. */
  boolean exists() {
    return known != null;
  }

  List<Long> known() {
    return known;
  }

  /** The client was told {@code kind} succeeded. */
  void acknowledged(FsOperation.Kind kind, long token) {
    if (!certain()) {
      throw new IllegalStateException(path + ": an acknowledged operation while others are in doubt");
    }
    known = apply(known, kind, token, true);
    if (kind == FsOperation.Kind.DELETE || kind == FsOperation.Kind.CREATE) {
      garbageBytes = 0;
    }
  }

  /** The client never learned whether {@code kind} happened. */
  void unknown(FsOperation.Kind kind, long token) {
    pending.add(new Pending(kind, token));
  }

  /**
   * Checks a read of the file ({@code found} null: absent) against what is known; the problem when nothing explains
   * it. Afterwards the read is what is known.
   */
  Optional<String> read(Records.Decoded found) {
    List<Long> tokens = found == null ? null : found.tokens();
    long garbage = found == null ? 0 : found.garbageBytes();
    Optional<String> problem;
    if (certain()) {
      boolean same = Objects.equals(known, tokens) && (tokens == null || garbage == garbageBytes);
      problem = same ? Optional.empty() : Optional.of(path + ": expected " + describe(known, garbageBytes)
          + ", read " + describe(tokens, garbage));
    } else {
      Set<List<Long>> explained = new HashSet<>();
      explained.add(known == null ? List.of(-1L) : known);
      for (Pending op : pending) {
        Set<List<Long>> next = new HashSet<>(explained);
        for (List<Long> state : explained) {
          List<Long> before = state.equals(List.of(-1L)) ? null : state;
          List<Long> whole = apply(before, op.kind(), op.token(), true);
          List<Long> partial = apply(before, op.kind(), op.token(), false);
          next.add(whole == null ? List.of(-1L) : whole);
          next.add(partial == null ? List.of(-1L) : partial);
        }
        explained = next;
      }
      problem = explained.contains(tokens == null ? List.of(-1L) : tokens) ? Optional.empty()
          : Optional.of(path + ": read " + describe(tokens, garbage) + ", which no subset of the operations in doubt "
              + pending + " explains from " + describe(known, garbageBytes));
    }
    known = tokens;
    garbageBytes = garbage;
    pending.clear();
    return problem;
  }

  /**
   * The state after {@code kind} on {@code before}: wholly, or as an interrupted write leaves it (a create: an empty
   * file; an append: nothing but garbage). An operation HDFS would refuse leaves the state as it was.
   */
  private static List<Long> apply(List<Long> before, FsOperation.Kind kind, long token, boolean whole) {
    switch (kind) {
      case CREATE -> {
        if (before != null) {
          return before;
        }
        return whole ? List.of(token) : List.of();
      }
      case APPEND -> {
        if (before == null || !whole) {
          return before;
        }
        List<Long> after = new ArrayList<>(before);
        after.add(token);
        return List.copyOf(after);
      }
      case DELETE -> {
        return null;
      }
      default -> throw new IllegalArgumentException("not a change of an own file: " + kind);
    }
  }

  private static String describe(List<Long> tokens, long garbage) {
    return tokens == null ? "no file" : tokens + (garbage == 0 ? "" : " and " + garbage + " garbage bytes");
  }
}

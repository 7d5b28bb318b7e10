package io.canopy.bench.nemesis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The sequential model a history is checked against: a small namespace of directories and files, each file the list
 * of tokens written to it, with HDFS's semantics for what a nemesis workload does (FileSystem.mkdirs, create without
 * overwrite, append, recursive delete, rename of the old ClientProtocol call, read). Immutable: each step makes a new
 * model, so the checker can keep the ones it has seen.
 */
public final class FsModel {
  /** A directory's entry; a file's entry is its tokens. */
  private static final List<Long> DIRECTORY = Collections.unmodifiableList(new ArrayList<>());

  /** Every path but the root, to its entry (the root "/" is a directory that always exists). */
  private final TreeMap<String, List<Long>> entries;
  private final int hash;

  private FsModel(TreeMap<String, List<Long>> entries) {
    this.entries = entries;
    this.hash = entries.hashCode();
  }

  /** A namespace holding only the root. */
  public static FsModel empty() {
    return new FsModel(new TreeMap<>());
  }

  /** {@code op}'s effect here, when what its client was told agrees with this state; empty when it cannot be. */
  public Optional<FsModel> apply(FsOperation op) {
    Step step = switch (op.kind()) {
      case MKDIRS -> mkdirs(op.path());
      case CREATE -> create(op.path(), op.token());
      case APPEND -> append(op.path(), op.token());
      case DELETE -> delete(op.path());
      case RENAME -> rename(op.path(), op.target());
      case READ -> new Step(isFile(op.path()), this, isFile(op.path()) ? entries.get(op.path()) : null);
    };
    return switch (op.outcome()) {
      case UNKNOWN -> Optional.of(step.after());
      case FAILED -> step.succeeded() ? Optional.empty() : Optional.of(step.after());
      case OK -> step.succeeded() && (op.kind() != FsOperation.Kind.READ || step.read().equals(op.read()))
          ? Optional.of(step.after()) : Optional.empty();
    };
  }

  /** What an operation does: whether it succeeds, the state after, and what a read returns. */
  private record Step(boolean succeeded, FsModel after, List<Long> read) {
    static Step failed(FsModel unchanged) {
      return new Step(false, unchanged, null);
    }
  }

  private boolean exists(String path) {
    return path.equals("/") || entries.containsKey(path);
  }

  private boolean isDirectory(String path) {
    return path.equals("/") || entries.get(path) == DIRECTORY;
  }

  private boolean isFile(String path) {
    List<Long> entry = entries.get(path);
    return entry != null && entry != DIRECTORY;
  }

  static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  private static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Whether {@code path} is {@code ancestor} or below it. */
  private static boolean within(String path, String ancestor) {
    return path.equals(ancestor) || ancestor.equals("/") || path.startsWith(ancestor + "/");
  }

  /** The ancestors of {@code path} that do not exist, outermost first; null when one of them is a file. */
  private List<String> missingAncestors(String path) {
    List<String> missing = new ArrayList<>();
    for (String at = parent(path); !at.equals("/"); at = parent(at)) {
      if (isFile(at)) {
        return null;
      }
      if (!exists(at)) {
        missing.add(0, at);
      }
    }
    return missing;
  }

  private Step mkdirs(String path) {
    List<String> missing = missingAncestors(path);
    if (missing == null || isFile(path)) {
      return Step.failed(this);
    }
    TreeMap<String, List<Long>> next = new TreeMap<>(entries);
    missing.forEach(directory -> next.put(directory, DIRECTORY));
    next.put(path, DIRECTORY);
    return new Step(true, new FsModel(next), null);
  }

  private Step create(String path, long token) {
    List<String> missing = missingAncestors(path);
    if (missing == null || exists(path)) {
      return Step.failed(this);
    }
    TreeMap<String, List<Long>> next = new TreeMap<>(entries);
    missing.forEach(directory -> next.put(directory, DIRECTORY));
    next.put(path, List.of(token));
    return new Step(true, new FsModel(next), null);
  }

  private Step append(String path, long token) {
    if (!isFile(path)) {
      return Step.failed(this);
    }
    TreeMap<String, List<Long>> next = new TreeMap<>(entries);
    List<Long> tokens = new ArrayList<>(entries.get(path));
    tokens.add(token);
    next.put(path, List.copyOf(tokens));
    return new Step(true, new FsModel(next), null);
  }

  private Step delete(String path) {
    if (path.equals("/") || !exists(path)) {
      return Step.failed(this);
    }
    TreeMap<String, List<Long>> next = new TreeMap<>(entries);
    next.keySet().removeIf(entry -> within(entry, path));
    return new Step(true, new FsModel(next), null);
  }

  /**
   * HDFS's rename (the old call, as {@code FileSystem.rename}): false when the source is missing or the root, the
   * destination's parent is missing or a file, the destination is an existing file, or the destination lies below the
   * source; onto an existing directory, the source moves into it under its own name. A file renamed onto itself
   * succeeds without change; a directory renamed onto itself fails (HDFS first makes the destination the directory's
   * child of its own name, which lies below the source: found by the nemesis against a real cluster).
   */
  private Step rename(String source, String target) {
    if (source.equals("/") || !exists(source)) {
      return Step.failed(this);
    }
    String destination = isDirectory(target) ? (target.equals("/") ? "" : target) + "/" + name(source) : target;
    if (destination.equals(source)) {
      return new Step(true, this, null);
    }
    if (exists(destination) || !isDirectory(parent(destination)) || within(destination, source)) {
      return Step.failed(this);
    }
    TreeMap<String, List<Long>> next = new TreeMap<>(entries);
    for (Map.Entry<String, List<Long>> entry : entries.subMap(source, true, source + "/\uffff", true).entrySet()) {
      if (within(entry.getKey(), source)) {
        next.remove(entry.getKey());
        next.put(destination + entry.getKey().substring(source.length()), entry.getValue());
      }
    }
    return new Step(true, new FsModel(next), null);
  }

  /** The tokens of the file at {@code path}, or null when there is none (tests, reports). */
  public List<Long> file(String path) {
    return isFile(path) ? entries.get(path) : null;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FsModel model && hash == model.hash && entries.equals(model.entries);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return entries.toString();
  }
}

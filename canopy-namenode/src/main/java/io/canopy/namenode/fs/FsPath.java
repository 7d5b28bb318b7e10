package io.canopy.namenode.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;

/**
 * A validated absolute path split into components. Validation follows HDFS: absolute, no "." or ".." or ":" in a
 * component, no empty component except a trailing slash; and, as the database cannot store them, no NUL or unpaired
 * surrogate ({@link StorableText}). The root has no components.
 */
public final class FsPath implements Comparable<FsPath> {
  public static final FsPath ROOT = new FsPath("/", List.of());

  private final String text;
  private final List<String> components;
  /**
   * This path's ancestors by depth, made on first use: lock planning asks for every prefix of a path several times
   * per call, and making one joins its components again (quadratic in the depth). A racy cache: two threads may both
   * make an ancestor, and either equal copy serves.
   */
  private FsPath[] ancestors;
  /** The hash of the components, once computed (0: not yet); paths are keys of the lock plan's maps. */
  private int hash;

  private FsPath(String text, List<String> components) {
    this.text = text;
    this.components = components;
  }

  /**
   * A path a client sent to {@code call}: HDFS's length and depth limits first (8,000 characters, 1,000 levels, with
   * its message), then {@link #parse}. HDFS checks them only on the calls that create a path (NameNodeRpcServer's
   * checkPathLength); Canopy checks every call, so a path no call could have created is refused before it costs a
   * database round trip per component.
   */
  public static FsPath parse(String call, String src) throws IOException {
    if (src != null && (src.length() > HdfsServerConstants.MAX_PATH_LENGTH
        || depthOf(src) > HdfsServerConstants.MAX_PATH_DEPTH)) {
      throw new IOException(call + ": Pathname too long.  Limit " + HdfsServerConstants.MAX_PATH_LENGTH
          + " characters, " + HdfsServerConstants.MAX_PATH_DEPTH + " levels.");
    }
    return parse(src);
  }

  /** The number of non-empty components of {@code src}, as HDFS's {@code Path.depth()} counts them. */
  private static int depthOf(String src) {
    int depth = 0;
    for (int i = 0; i < src.length(); i++) {
      if (src.charAt(i) != '/' && (i == 0 || src.charAt(i - 1) == '/')) {
        depth++;
      }
    }
    return depth;
  }

  /**
   * Parses {@code src} without the length and depth limits (paths that are not a client's); throws HDFS's
   * {@link InvalidPathException} naming the path when it is not valid.
   */
  public static FsPath parse(String src) {
    if (src == null || src.isEmpty() || src.charAt(0) != '/') {
      throw new InvalidPathException(String.valueOf(src), "Path must be absolute");
    }
    List<String> parts = new ArrayList<>();
    int start = 1;
    while (start <= src.length()) {
      int end = src.indexOf('/', start);
      if (end < 0) {
        end = src.length();
      }
      String part = src.substring(start, end);
      if (part.isEmpty()) {
        if (end != src.length()) { // only a trailing slash may leave an empty component
          throw new InvalidPathException(src, "Empty path component");
        }
      } else {
        requireValidComponent(src, part);
        parts.add(part);
      }
      start = end + 1;
    }
    if (parts.isEmpty()) {
      return ROOT;
    }
    // A path without a trailing slash is its own text: no need to join the components again.
    String text = src.charAt(src.length() - 1) == '/' ? "/" + String.join("/", parts) : src;
    return new FsPath(text, Collections.unmodifiableList(parts));
  }

  private static void requireValidComponent(String src, String part) {
    if (part.equals(".") || part.equals("..")) {
      throw new InvalidPathException(src, "Path component '" + part + "' is not allowed");
    }
    if (part.indexOf(':') >= 0) {
      throw new InvalidPathException(src, "Path component '" + part + "' contains ':'");
    }
    String unstorable = StorableText.problem(part);
    if (unstorable != null) {
      throw new InvalidPathException(StorableText.shown(src),
          "path component \"" + StorableText.shown(part) + "\" " + unstorable);
    }
  }

  public List<String> components() {
    return components;
  }

  public int depth() {
    return components.size();
  }

  public boolean isRoot() {
    return components.isEmpty();
  }

  public String name() {
    return isRoot() ? "" : components.get(components.size() - 1);
  }

  public FsPath parent() {
    if (isRoot()) {
      throw new IllegalStateException("the root has no parent");
    }
    return ancestor(components.size() - 1);
  }

  /** The path of this path's first {@code depth} components (0: the root; {@link #depth()}: this path). */
  public FsPath ancestor(int depth) {
    if (depth < 0 || depth > components.size()) {
      throw new IllegalArgumentException("no ancestor at depth " + depth + " of " + text);
    }
    if (depth == components.size()) {
      return this;
    }
    if (depth == 0) {
      return ROOT;
    }
    FsPath[] known = ancestors;
    if (known == null) {
      known = new FsPath[components.size()];
      ancestors = known;
    }
    FsPath ancestor = known[depth];
    if (ancestor == null) {
      int end = 0; // the text is "/" + the components joined by "/": the prefix ends after depth of them
      for (int i = 0; i < depth; i++) {
        end += 1 + components.get(i).length();
      }
      ancestor = new FsPath(text.substring(0, end), components.subList(0, depth));
      known[depth] = ancestor;
    }
    return ancestor;
  }

  public FsPath child(String name) {
    List<String> parts = new ArrayList<>(components);
    parts.add(name);
    return new FsPath(isRoot() ? "/" + name : text + "/" + name, Collections.unmodifiableList(parts));
  }

  /** True when {@code other} is this path or lies under it. */
  public boolean isAncestorOrSelf(FsPath other) {
    return other.components.size() >= components.size()
        && other.components.subList(0, components.size()).equals(components);
  }

  /** Global lock order: component by component from the root, an ancestor before its descendants. */
  @Override
  public int compareTo(FsPath other) {
    int common = Math.min(components.size(), other.components.size());
    for (int i = 0; i < common; i++) {
      int order = NameOrder.compare(components.get(i), other.components.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(components.size(), other.components.size());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FsPath path && path.components.equals(components);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = components.hashCode();
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return text;
  }
}

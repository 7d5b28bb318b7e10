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
    String[] pieces = src.substring(1).split("/", -1);
    List<String> parts = new ArrayList<>(pieces.length);
    for (int i = 0; i < pieces.length; i++) {
      String part = pieces[i];
      if (part.isEmpty()) {
        if (i != pieces.length - 1) { // only a trailing slash may leave an empty component
          throw new InvalidPathException(src, "Empty path component");
        }
      } else if (part.equals(".") || part.equals("..")) {
        throw new InvalidPathException(src, "Path component '" + part + "' is not allowed");
      } else if (part.indexOf(':') >= 0) {
        throw new InvalidPathException(src, "Path component '" + part + "' contains ':'");
      } else {
        String unstorable = StorableText.problem(part);
        if (unstorable != null) {
          throw new InvalidPathException(StorableText.shown(src),
              "path component \"" + StorableText.shown(part) + "\" " + unstorable);
        }
        parts.add(part);
      }
    }
    if (parts.isEmpty()) {
      return ROOT;
    }
    return new FsPath("/" + String.join("/", parts), Collections.unmodifiableList(parts));
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
    List<String> parts = components.subList(0, depth);
    return parts.isEmpty() ? ROOT : new FsPath("/" + String.join("/", parts), parts);
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
    return components.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}

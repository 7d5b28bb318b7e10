package io.canopy.bench.mix;

import java.util.List;
import java.util.Objects;
import org.apache.hadoop.fs.Path;

/**
 * The namespace a mix runs on: the working set of directories (the base included) and files, sorted by path so
 * that the same namespace gives the same working set, and so the same operation sequence for a seed, on every
 * system.
 *
 * @param base the base directory
 * @param directories every directory of the tree, the base included
 * @param files every file of the tree (the completion marker excluded)
 * @param built true if this call built the tree, false if it found a complete one and listed it
 * @param seconds how long building or listing took
 */
public record MixNamespace(Path base, List<Path> directories, List<Path> files, boolean built, double seconds) {
  public MixNamespace {
    Objects.requireNonNull(base, "base");
    directories = List.copyOf(directories);
    files = List.copyOf(files);
  }
}

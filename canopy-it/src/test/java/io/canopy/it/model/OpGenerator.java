package io.canopy.it.model;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Random operations, a function of the seed and the model's state: paths are mostly ones that exist or sit right
 * under one that does (a file included, so "a file on the way" happens), names come from a small pool so they
 * collide, sizes and quotas sit around the block and quota boundaries. The tree is kept small: past
 * {@link #CROWDED} paths, deletes grow likelier.
 */
public final class OpGenerator {
  /** Names collide often; "B" sorts before "a" in byte order, "d.txt" has a dot. */
  static final String[] NAMES = {"a", "b", "c", "B", "d.txt"};
  /** Past this many paths the generator deletes more and creates less. */
  static final int CROWDED = 30;
  private static final long DONT_SET = Long.MAX_VALUE;
  private static final long RESET = -1;
  private static final short[] MODES = {0755, 0700, 0500, 0644, 0777, 01777, 0, 0555, 0711};

  private final Random random;
  private final Map<OpKind, Integer> weights = new EnumMap<>(OpKind.class);

  public OpGenerator(long seed, Set<OpKind> kinds) {
    this.random = new Random(seed);
    Map<OpKind, Integer> all = new EnumMap<>(OpKind.class);
    all.put(OpKind.MKDIR, 10);
    all.put(OpKind.CREATE, 16);
    all.put(OpKind.APPEND, 8);
    all.put(OpKind.RENAME, 10);
    all.put(OpKind.RENAME2, 8);
    all.put(OpKind.DELETE, 6);
    all.put(OpKind.CHMOD, 4);
    all.put(OpKind.SET_QUOTA, 6);
    all.put(OpKind.LIST, 8);
    all.put(OpKind.STAT, 8);
    all.put(OpKind.COUNT, 5);
    all.put(OpKind.QUOTA_USAGE, 4);
    all.put(OpKind.READ, 5);
    all.put(OpKind.TREE, 1);
    for (OpKind kind : kinds) {
      weights.put(kind, all.get(kind));
    }
  }

  public Op next(HdfsModel model) {
    List<String> paths = model.paths();
    OpKind kind = pickKind(paths.size() > CROWDED);
    long blockSize = model.settings().blockSize();
    long replication = model.settings().replication();
    return switch (kind) {
      case MKDIR -> new Op.Mkdir(target(paths));
      case CREATE -> new Op.Create(target(paths), pickSize(blockSize), random.nextInt(4) == 0, random.nextInt(256));
      case APPEND -> {
        String path = chance(85) ? existingFile(model, paths) : target(paths);
        long length = Math.max(0, model.fileLength(path));
        // One-block files: an append never goes past the first block.
        int size = (int) Math.min(pickSize(blockSize), blockSize - length);
        yield new Op.Append(path, size, random.nextInt(256));
      }
      case RENAME -> new Op.Rename(existingBelowRoot(paths), target(paths));
      case RENAME2 -> new Op.Rename2(existingBelowRoot(paths), target(paths), chance(50));
      case DELETE -> new Op.Delete(chance(90) ? existingBelowRoot(paths) : target(paths), chance(60));
      case CHMOD -> new Op.Chmod(chance(90) ? pick(paths) : target(paths), MODES[random.nextInt(MODES.length)]);
      case SET_QUOTA -> {
        String path = chance(80) ? existingDirectory(model, paths) : target(paths);
        long[] namespace = {1, 2, 3, 4, 6, 10, RESET, DONT_SET};
        long unit = blockSize * replication;
        long[] storage = {0, unit - 1, unit, 2 * unit, 3 * unit, 5 * unit, RESET, DONT_SET};
        yield new Op.SetQuota(path, namespace[random.nextInt(namespace.length)],
            storage[random.nextInt(storage.length)]);
      }
      case LIST -> new Op.List(chance(85) ? pick(paths) : target(paths));
      case STAT -> new Op.Stat(chance(85) ? pick(paths) : target(paths));
      case COUNT -> new Op.Count(chance(90) ? pick(paths) : target(paths));
      case QUOTA_USAGE -> new Op.QuotaUsage(chance(90) ? pick(paths) : target(paths));
      case READ -> new Op.Read(chance(85) ? existingFile(model, paths) : target(paths));
      case TREE -> new Op.Tree(chance(90) ? existingDirectory(model, paths) : target(paths));
    };
  }

  private OpKind pickKind(boolean crowded) {
    int total = 0;
    for (Map.Entry<OpKind, Integer> entry : weights.entrySet()) {
      total += adjusted(entry.getKey(), entry.getValue(), crowded);
    }
    int roll = random.nextInt(total);
    for (Map.Entry<OpKind, Integer> entry : weights.entrySet()) {
      roll -= adjusted(entry.getKey(), entry.getValue(), crowded);
      if (roll < 0) {
        return entry.getKey();
      }
    }
    throw new AssertionError("weights changed while picking");
  }

  private static int adjusted(OpKind kind, int weight, boolean crowded) {
    if (!crowded) {
      return weight;
    }
    return switch (kind) {
      case DELETE -> weight * 4;
      case MKDIR, CREATE -> Math.max(1, weight / 3);
      default -> weight;
    };
  }

  private int pickSize(long blockSize) {
    int[] sizes = {0, 1, 100, 511, 512, 1000, (int) blockSize};
    return (int) Math.min(blockSize, sizes[random.nextInt(sizes.length)]);
  }

  /** An existing path (45%), a new name under one (40%), or two new levels under one (15%). */
  private String target(List<String> paths) {
    int roll = random.nextInt(100);
    String base = pick(paths);
    if (roll < 45) {
      return base;
    }
    String child = HdfsModel.join(base, name());
    return roll < 85 ? child : HdfsModel.join(child, name());
  }

  private String existingBelowRoot(List<String> paths) {
    return paths.size() > 1 ? paths.get(1 + random.nextInt(paths.size() - 1)) : "/" + name();
  }

  private String existingFile(HdfsModel model, List<String> paths) {
    List<String> files = new ArrayList<>();
    for (String path : paths) {
      if (model.fileLength(path) >= 0) {
        files.add(path);
      }
    }
    return files.isEmpty() ? target(paths) : pick(files);
  }

  private String existingDirectory(HdfsModel model, List<String> paths) {
    List<String> directories = new ArrayList<>();
    for (String path : paths) {
      if (model.isDirectory(path)) {
        directories.add(path);
      }
    }
    return pick(directories);
  }

  private String pick(List<String> paths) {
    return paths.get(random.nextInt(paths.size()));
  }

  private String name() {
    return NAMES[random.nextInt(NAMES.length)];
  }

  private boolean chance(int percent) {
    return random.nextInt(100) < percent;
  }
}

package io.canopy.it.model;

/**
 * One file-system operation of a model-based test, on a path relative to the run's root directory ({@code /} is that
 * root). Records, so a failing sequence prints as readable steps and replays exactly.
 */
public sealed interface Op {
  OpKind kind();

  /** {@code mkdirs(path)}: creates missing parents too. */
  record Mkdir(String path) implements Op {
    public OpKind kind() {
      return OpKind.MKDIR;
    }

    @Override
    public String toString() {
      return "mkdirs " + path;
    }
  }

  /** {@code create(path, overwrite)}, write {@code size} bytes derived from {@code fill}, close. */
  record Create(String path, int size, boolean overwrite, int fill) implements Op {
    public OpKind kind() {
      return OpKind.CREATE;
    }

    @Override
    public String toString() {
      return "create " + path + " size=" + size + (overwrite ? " overwrite" : "") + " fill=" + fill;
    }
  }

  /** {@code append(path)}, write {@code size} bytes derived from {@code fill}, close. */
  record Append(String path, int size, int fill) implements Op {
    public OpKind kind() {
      return OpKind.APPEND;
    }

    @Override
    public String toString() {
      return "append " + path + " size=" + size + " fill=" + fill;
    }
  }

  /** The boolean {@code rename(src, dst)} (into {@code dst} when it is a directory). */
  record Rename(String src, String dst) implements Op {
    public OpKind kind() {
      return OpKind.RENAME;
    }

    @Override
    public String toString() {
      return "rename " + src + " " + dst;
    }
  }

  /** {@code rename(src, dst, NONE | OVERWRITE)}, HDFS's rename2. */
  record Rename2(String src, String dst, boolean overwrite) implements Op {
    public OpKind kind() {
      return OpKind.RENAME2;
    }

    @Override
    public String toString() {
      return "rename2 " + src + " " + dst + (overwrite ? " OVERWRITE" : " NONE");
    }
  }

  record Delete(String path, boolean recursive) implements Op {
    public OpKind kind() {
      return OpKind.DELETE;
    }

    @Override
    public String toString() {
      return "delete " + path + (recursive ? " recursive" : "");
    }
  }

  record Chmod(String path, short mode) implements Op {
    public OpKind kind() {
      return OpKind.CHMOD;
    }

    @Override
    public String toString() {
      return "chmod " + Integer.toOctalString(mode) + " " + path;
    }
  }

  /** {@code setQuota(path, namespace, storagespace)}; -1 resets, {@code Long.MAX_VALUE} leaves unchanged. */
  record SetQuota(String path, long namespace, long storagespace) implements Op {
    public OpKind kind() {
      return OpKind.SET_QUOTA;
    }

    @Override
    public String toString() {
      return "setQuota " + path + " ns=" + quota(namespace) + " ss=" + quota(storagespace);
    }

    private static String quota(long value) {
      return value == Long.MAX_VALUE ? "unchanged" : value == -1 ? "reset" : Long.toString(value);
    }
  }

  /** {@code listStatus(path)}. */
  record List(String path) implements Op {
    public OpKind kind() {
      return OpKind.LIST;
    }

    @Override
    public String toString() {
      return "list " + path;
    }
  }

  /** {@code getFileStatus(path)}. */
  record Stat(String path) implements Op {
    public OpKind kind() {
      return OpKind.STAT;
    }

    @Override
    public String toString() {
      return "stat " + path;
    }
  }

  /** {@code getContentSummary(path)}. */
  record Count(String path) implements Op {
    public OpKind kind() {
      return OpKind.COUNT;
    }

    @Override
    public String toString() {
      return "count " + path;
    }
  }

  /** {@code getQuotaUsage(path)}. */
  record QuotaUsage(String path) implements Op {
    public OpKind kind() {
      return OpKind.QUOTA_USAGE;
    }

    @Override
    public String toString() {
      return "quotaUsage " + path;
    }
  }

  /** {@code open(path)} and read the whole file. */
  record Read(String path) implements Op {
    public OpKind kind() {
      return OpKind.READ;
    }

    @Override
    public String toString() {
      return "read " + path;
    }
  }

  /** Every path under {@code path} with its status, by recursive listings (each episode ends with one of "/"). */
  record Tree(String path) implements Op {
    public OpKind kind() {
      return OpKind.TREE;
    }

    @Override
    public String toString() {
      return "tree " + path;
    }
  }

  /** The bytes a create or append writes: a function of the step's {@code fill}, so a replay writes the same. */
  static byte[] data(int size, int fill) {
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) (fill * 31 + i * 7);
    }
    return bytes;
  }
}

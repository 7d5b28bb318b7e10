package io.canopy.bench.mix;

/**
 * The file-system operations of the Spotify workload (docs/references.md [HopsFS-CL] s.V-B, [HopsFS-1M] Fig. 3), in the
 * order of their frequency. Each one is a single Hadoop {@code FileSystem} call, or a short sequence of calls for reads
 * and creates; {@link MixWorker} holds the exact semantics.
 */
public enum MixOperation {
  /** open + read to the end + close of a file in the working set. */
  READ_FILE("read file"),
  /** getFileStatus of a file. */
  STAT_FILE("stat file"),
  /** listStatus of a directory. */
  LS_DIR("ls dir"),
  /** getFileStatus of a directory. */
  STAT_DIR("stat dir"),
  /** create (overwrite=false) + write 0..maxFileBytes bytes + close of a new file in a random directory. */
  CREATE_FILE("create file"),
  /** rename of a file to a new name in the same directory. */
  RENAME_FILE("rename file"),
  /** non-recursive delete of a file, preferably one this run created. */
  DELETE_FILE("delete file"),
  /** listStatus of a file (a one-entry listing). */
  LS_FILE("ls file"),
  /** setOwner of a directory to the current user and a group. */
  CHOWN_DIR("chown dir"),
  /** setReplication of a file, cycling 1, 2, 3. */
  SET_REPLICATION("set replication"),
  /** setPermission of a file, alternating 0644 and 0640. */
  CHMOD_FILE("chmod file"),
  /** mkdirs of a new subdirectory of a random directory. */
  MKDIR("mkdir"),
  /** setPermission of a directory, alternating 0755 and 0750. */
  CHMOD_DIR("chmod dir");

  private final String label;

  MixOperation(String label) {
    this.label = label;
  }

  /** Human-readable name for reports, e.g. "read file". */
  public String label() {
    return label;
  }
}

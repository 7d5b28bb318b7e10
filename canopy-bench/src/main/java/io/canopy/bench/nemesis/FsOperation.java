package io.canopy.bench.nemesis;

import java.util.List;
import java.util.Objects;

/**
 * One operation of a recorded history: what a client asked, when (its call and return instants on one monotonic
 * clock), and what it was told. An operation whose answer never came (the client timed out, or its namenode died) is
 * {@link Outcome#UNKNOWN}: it may have taken effect at any instant after its call, or never.
 *
 * @param kind what was asked
 * @param path the file or directory (the source of a rename)
 * @param target a rename's destination, else null
 * @param token what a create or append wrote: one token per write, so a read shows which writes it saw
 * @param callNanos when the client asked
 * @param returnNanos when the answer came; {@link Long#MAX_VALUE} for an unknown outcome
 * @param outcome what the client was told
 * @param read what a read returned: the file's tokens in order, or null when the file was not found
 */
public record FsOperation(Kind kind, String path, String target, long token, long callNanos, long returnNanos,
    Outcome outcome, List<Long> read) {
  /** The operations the model knows. */
  public enum Kind {
    MKDIRS, CREATE, APPEND, DELETE, RENAME, READ
  }

  /** What the client was told. */
  public enum Outcome {
    /** Done, or for a read: the file with {@link #read} tokens. */
    OK,
    /** Refused or false (the file existed, was missing, ...); for a read: not found. */
    FAILED,
    /** No answer: it may or may not have happened. */
    UNKNOWN
  }

  public FsOperation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(outcome, "outcome");
    if (kind == Kind.RENAME) {
      Objects.requireNonNull(target, "a rename's target");
    }
    if (outcome == Outcome.UNKNOWN ? returnNanos != Long.MAX_VALUE : returnNanos < callNanos) {
      throw new IllegalArgumentException("an operation returns after its call, an unknown one never: " + callNanos
          + " -> " + returnNanos + " " + outcome);
    }
    read = read == null ? null : List.copyOf(read);
  }

  @Override
  public String toString() {
    return kind + " " + path + (target == null ? "" : " -> " + target) + (kind == Kind.CREATE || kind == Kind.APPEND
        ? " #" + token : "") + " [" + callNanos + ", " + (outcome == Outcome.UNKNOWN ? "?" : returnNanos) + "] "
        + outcome + (kind == Kind.READ && outcome == Outcome.OK ? " " + read : "");
  }
}

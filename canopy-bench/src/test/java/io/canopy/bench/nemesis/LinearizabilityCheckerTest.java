package io.canopy.bench.nemesis;

import static io.canopy.bench.nemesis.FsOperation.Kind.APPEND;
import static io.canopy.bench.nemesis.FsOperation.Kind.CREATE;
import static io.canopy.bench.nemesis.FsOperation.Kind.DELETE;
import static io.canopy.bench.nemesis.FsOperation.Kind.MKDIRS;
import static io.canopy.bench.nemesis.FsOperation.Kind.READ;
import static io.canopy.bench.nemesis.FsOperation.Kind.RENAME;
import static io.canopy.bench.nemesis.FsOperation.Outcome.FAILED;
import static io.canopy.bench.nemesis.FsOperation.Outcome.OK;
import static io.canopy.bench.nemesis.FsOperation.Outcome.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.canopy.bench.nemesis.LinearizabilityChecker.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinearizabilityCheckerTest {
  private final LinearizabilityChecker checker = new LinearizabilityChecker(1_000_000);

  private static FsOperation op(FsOperation.Kind kind, String path, long token, long call, long back,
      FsOperation.Outcome outcome) {
    return new FsOperation(kind, path, null, token, call, outcome == UNKNOWN ? Long.MAX_VALUE : back, outcome, null);
  }

  private static FsOperation read(String path, long call, long back, List<Long> tokens) {
    return new FsOperation(READ, path, null, 0, call, back, tokens == null ? FAILED : OK, tokens);
  }

  private static FsOperation rename(String source, String target, long call, long back, FsOperation.Outcome outcome) {
    return new FsOperation(RENAME, source, target, 0, call, back, outcome, null);
  }

  private Verdict verdict(FsOperation... history) {
    return checker.check(List.of(history), FsModel.empty()).verdict();
  }

  @Test
  void aSequentialHistoryOfHdfsAnswersIsLinearizable() {
    assertEquals(Verdict.LINEARIZABLE, verdict(
        op(MKDIRS, "/k/d", 0, 0, 1, OK),
        op(CREATE, "/k/d/f", 7, 2, 3, OK),
        op(CREATE, "/k/d/f", 8, 4, 5, FAILED), // exists
        op(APPEND, "/k/d/f", 9, 6, 7, OK),
        read("/k/d/f", 8, 9, List.of(7L, 9L)),
        rename("/k/d/f", "/k/d/g", 10, 11, OK),
        read("/k/d/f", 12, 13, null),
        op(DELETE, "/k/d", 0, 14, 15, OK),
        read("/k/d/g", 16, 17, null),
        op(APPEND, "/k/d/g", 3, 18, 19, FAILED)));
  }

  @Test
  void twoCreatesOfOneNameCannotBothSucceed() {
    assertEquals(Verdict.NOT_LINEARIZABLE, verdict(op(CREATE, "/k/f", 1, 0, 10, OK), op(CREATE, "/k/f", 2, 1, 9, OK)));
    assertEquals(Verdict.LINEARIZABLE, verdict(op(CREATE, "/k/f", 1, 0, 10, OK),
        op(CREATE, "/k/f", 2, 1, 9, FAILED)));
  }

  @Test
  void aReadAfterAnAcknowledgedWriteMustSeeIt() {
    // the append returned before the read was called: a read without its token lost it
    assertEquals(Verdict.NOT_LINEARIZABLE, verdict(op(CREATE, "/k/f", 1, 0, 1, OK), op(APPEND, "/k/f", 2, 2, 3, OK),
        read("/k/f", 4, 5, List.of(1L))));
    // overlapping, either order is possible
    assertEquals(Verdict.LINEARIZABLE, verdict(op(CREATE, "/k/f", 1, 0, 1, OK), op(APPEND, "/k/f", 2, 2, 6, OK),
        read("/k/f", 4, 5, List.of(1L))));
    // a read may not see a write that had not been called yet
    assertEquals(Verdict.NOT_LINEARIZABLE, verdict(op(CREATE, "/k/f", 1, 0, 1, OK), read("/k/f", 2, 3, List.of(1L,
        2L)), op(APPEND, "/k/f", 2, 4, 5, OK)));
  }

  @Test
  void anOperationWithoutAnswerMayHaveHappenedOrNot() {
    FsOperation lost = op(CREATE, "/k/f", 1, 0, 0, UNKNOWN);
    assertEquals(Verdict.LINEARIZABLE, verdict(lost, read("/k/f", 5, 6, List.of(1L))));
    assertEquals(Verdict.LINEARIZABLE, verdict(lost, read("/k/f", 5, 6, null)));
    // but not before it was called
    assertEquals(Verdict.NOT_LINEARIZABLE, verdict(read("/k/f", 0, 1, List.of(1L)), op(CREATE, "/k/f", 1, 2, 0,
        UNKNOWN)));
    // nor twice: once seen, a later read without it means it was lost again
    assertEquals(Verdict.NOT_LINEARIZABLE, verdict(lost, read("/k/f", 5, 6, List.of(1L)), read("/k/f", 7, 8, null)));
  }

  @Test
  void renamesFollowHdfs() {
    assertEquals(Verdict.LINEARIZABLE, verdict(op(MKDIRS, "/k/d", 0, 0, 1, OK), op(CREATE, "/k/f", 1, 2, 3, OK),
        rename("/k/f", "/k/d", 4, 5, OK), // into the directory, under its own name
        read("/k/d/f", 6, 7, List.of(1L)),
        rename("/k/d/f", "/k/nowhere/f", 8, 9, FAILED), // the destination's parent is missing
        rename("/k/d", "/k/d/sub", 10, 11, FAILED), // below itself
        rename("/k/d", "/k/d", 12, 13, FAILED), // a directory onto itself: into itself, under its own name
        rename("/k/d/f", "/k/d/f", 14, 15, OK), // a file onto itself: done, nothing changes
        rename("/k/missing", "/k/x", 16, 17, FAILED)));
    assertEquals(Verdict.NOT_LINEARIZABLE, verdict(op(CREATE, "/k/f", 1, 0, 1, OK), op(CREATE, "/k/g", 2, 2, 3, OK),
        rename("/k/f", "/k/g", 4, 5, OK))); // onto an existing file: HDFS's rename says false
  }

  @Test
  void aHistorySplitsByTopDirectoryAndARenameJoinsTwoParts() {
    FsOperation a = op(CREATE, "/a/f", 1, 0, 1, OK);
    FsOperation b = op(CREATE, "/b/f", 2, 0, 1, OK);
    FsOperation c = op(CREATE, "/c/f", 3, 0, 1, OK);
    FsOperation moved = rename("/b/f", "/c/g", 2, 3, OK);
    assertEquals(List.of(List.of(a), List.of(b, moved, c)),
        LinearizabilityChecker.byTopDirectory(List.of(a, b, moved, c)));
    assertEquals(3, LinearizabilityChecker.byTopDirectory(List.of(a, b, c)).size());
  }

  @Test
  void aSearchPastItsBoundIsUndecided() {
    List<FsOperation> concurrent = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      concurrent.add(op(APPEND, "/k/f", i, 0, 100, FAILED));
    }
    LinearizabilityChecker.Result result = new LinearizabilityChecker(5).check(concurrent, FsModel.empty());
    assertEquals(Verdict.UNDECIDED, result.verdict());
    assertThrows(IllegalArgumentException.class, () -> new LinearizabilityChecker(0));
  }

  @Test
  void historiesOfRandomConcurrentClientsOnARealModelAreLinearizableAndALostWriteIsCaught() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 30; round++) {
      List<FsOperation> history = simulate(random, 4, 25);
      assertEquals(Verdict.LINEARIZABLE, checker.check(history, FsModel.empty()).verdict(), "seed " + seed);
      // the same history with one acknowledged read missing its last token: a lost write
      List<FsOperation> lossy = new ArrayList<>(history);
      for (int i = 0; i < lossy.size(); i++) {
        FsOperation op = lossy.get(i);
        if (op.kind() == READ && op.outcome() == OK && op.read().size() > 1 && i > 0) {
          boolean appendedBefore = history.stream().anyMatch(other -> other.kind() == APPEND
              && other.outcome() == OK && other.path().equals(op.path()) && other.returnNanos() < op.callNanos()
              && other.token() == op.read().get(op.read().size() - 1));
          if (appendedBefore) {
            lossy.set(i, new FsOperation(READ, op.path(), null, 0, op.callNanos(), op.returnNanos(), OK,
                op.read().subList(0, op.read().size() - 1)));
            assertEquals(Verdict.NOT_LINEARIZABLE, checker.check(lossy, FsModel.empty()).verdict(), "seed " + seed
                + ": " + lossy);
            break;
          }
        }
      }
    }
  }

  /**
   * A history of {@code clients} clients against the model itself: each operation takes effect at one instant inside
   * its interval, with the answer the model gives then; intervals of different clients overlap.
   */
  private static List<FsOperation> simulate(Random random, int clients, int operationsEach) {
    FsModel model = FsModel.empty();
    long[] busyUntil = new long[clients];
    List<FsOperation> history = new ArrayList<>();
    long token = 1;
    String[] paths = {"/k/a", "/k/b", "/k/d/c"};
    for (long now = 0; history.size() < clients * operationsEach; now += 1 + random.nextInt(3)) {
      int client = random.nextInt(clients);
      if (busyUntil[client] > now) {
        continue;
      }
      long call = now - random.nextInt(3);
      long back = now + 1 + random.nextInt(4);
      busyUntil[client] = back + 1;
      String path = paths[random.nextInt(paths.length)];
      FsOperation asked = switch (random.nextInt(6)) {
        case 0 -> new FsOperation(CREATE, path, null, token++, call, back, OK, null);
        case 1, 2 -> new FsOperation(APPEND, path, null, token++, call, back, OK, null);
        case 3 -> new FsOperation(DELETE, path, null, 0, call, back, OK, null);
        case 4 -> new FsOperation(RENAME, path, paths[random.nextInt(paths.length)], 0, call, back, OK, null);
        default -> new FsOperation(READ, path, null, 0, call, back, OK, List.of());
      };
      // the answer the model gives at this instant: try OK (with the read's tokens), else FAILED
      List<Long> tokens = model.file(path);
      FsOperation answered = asked.kind() == READ
          ? new FsOperation(READ, path, null, 0, call, back, tokens == null ? FAILED : OK, tokens)
          : asked;
      java.util.Optional<FsModel> next = model.apply(answered);
      if (next.isEmpty()) {
        answered = new FsOperation(asked.kind(), path, asked.target(), asked.token(), call, back, FAILED, null);
        next = model.apply(answered);
      }
      model = next.orElseThrow();
      history.add(answered);
    }
    return history;
  }
}

package io.canopy.it.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The shrinker, and the runner's shrinking of a diverging run, on fakes with known bugs. */
class ShrinkerTest {
  private static final HdfsModel.Settings SETTINGS =
      new HdfsModel.Settings(1024, (short) 2, "alice", "supergroup", (short) 0755, (short) 022);
  /** No generated step writes this many bytes: only the planted steps trigger the fake's bug. */
  private static final int BUGGY_SIZE = 777;

  /**
   * The model with a planted bug: a file of {@value #BUGGY_SIZE} bytes that was renamed reports length 0 in its
   * status.
   */
  private static final class BuggySystem implements FsUnderTest {
    private final HdfsModel model = new HdfsModel(SETTINGS);
    private final Set<String> renamedBuggyFiles = new HashSet<>();

    @Override
    public Outcome apply(Op op) {
      Outcome outcome = model.apply(op);
      if (op instanceof Op.Rename r && outcome.value().equals("true") && model.fileLength(r.dst()) == BUGGY_SIZE) {
        renamedBuggyFiles.add(r.dst());
      }
      if (op instanceof Op.Stat s && renamedBuggyFiles.contains(s.path())) {
        return Outcome.ok(outcome.value().replace("len=" + BUGGY_SIZE, "len=0"));
      }
      return outcome;
    }
  }

  private static ModelRunner.Fixture buggyFixture() {
    return new ModelRunner.Fixture() {
      @Override
      public HdfsModel model() {
        return new HdfsModel(SETTINGS);
      }

      @Override
      public FsUnderTest system() {
        return new BuggySystem();
      }
    };
  }

  @Test
  void shrinksAFakeBugToItsKnownMinimalSequence() {
    // 300 random steps that never touch /x or /y (their names are not in the generator's pool), with the three
    // steps that trigger the bug planted among them.
    Set<OpKind> kinds = EnumSet.complementOf(EnumSet.of(OpKind.SET_QUOTA, OpKind.QUOTA_USAGE));
    OpGenerator generator = new OpGenerator(7, kinds);
    HdfsModel model = new HdfsModel(SETTINGS);
    List<Op> steps = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Op op = generator.next(model);
      HdfsModel trial = model.copy();
      try {
        trial.apply(op);
      } catch (HdfsModel.Unspecified e) {
        continue;
      }
      model = trial;
      steps.add(op);
    }
    Op create = new Op.Create("/x", BUGGY_SIZE, false, 1);
    Op rename = new Op.Rename("/x", "/y");
    Op stat = new Op.Stat("/y");
    steps.add(40, create);
    steps.add(150, rename);
    steps.add(stat);

    ModelRunner.Run failing = ModelRunner.replay(steps, buggyFixture());
    assertNotNull(failing.divergence(), "the planted bug shows");
    assertEquals(stat, failing.divergence().op());

    ModelRunner.Shrunk shrunk = ModelRunner.shrink(failing, ShrinkerTest::buggyFixture, 2000, Duration.ofMinutes(1));
    assertEquals(List.of(create, rename, stat), shrunk.run().steps(), ModelRunner.describe(shrunk.run()));
    assertFalse(shrunk.bounded());
    assertEquals("file mode=644 owner=alice group=supergroup len=777 repl=2 bs=1024",
        shrunk.run().divergence().expected().value());
    assertEquals("file mode=644 owner=alice group=supergroup len=0 repl=2 bs=1024",
        shrunk.run().divergence().actual().value());
  }

  @Test
  void theCorrectModelDoesNotDivergeFromItself() {
    ModelRunner.Fixture fixture = new ModelRunner.Fixture() {
      @Override
      public HdfsModel model() {
        return new HdfsModel(SETTINGS);
      }

      @Override
      public FsUnderTest system() {
        return new HdfsModel(SETTINGS);
      }
    };
    ModelRunner.Run run = ModelRunner.generate(new OpGenerator(11, EnumSet.allOf(OpKind.class)), 500,
        fixture.model(), fixture.system());
    assertNull(run.divergence());
    assertEquals(501, run.steps().size(), "500 steps and the final tree");
  }

  @Test
  void ddminFindsTheTwoElementsThatMatter() {
    List<Integer> input = IntStream.range(0, 100).boxed().toList();
    Shrinker.Result<Integer> result = Shrinker.shrink(input,
        candidate -> candidate.contains(13) && candidate.contains(87) ? candidate.size() : -1, 10_000,
        Duration.ofMinutes(1));
    assertEquals(List.of(13, 87), result.steps());
    assertFalse(result.bounded());
  }

  @Test
  void theTrialBoundStopsTheSearch() {
    List<Integer> input = IntStream.range(0, 100).boxed().toList();
    Shrinker.Result<Integer> result = Shrinker.shrink(input,
        candidate -> candidate.contains(13) && candidate.contains(87) ? candidate.size() : -1, 3,
        Duration.ofMinutes(1));
    assertTrue(result.bounded());
    assertEquals(3, result.trials());
    assertTrue(result.steps().contains(13) && result.steps().contains(87));
  }

  @Test
  void stepsAfterTheFailureAreDropped() {
    List<Integer> input = IntStream.range(0, 50).boxed().toList();
    // Fails at the step holding 20, whatever comes after it.
    Shrinker.Result<Integer> result = Shrinker.shrink(input,
        candidate -> candidate.indexOf(20) >= 0 ? candidate.indexOf(20) + 1 : -1, 10_000, Duration.ofMinutes(1));
    assertEquals(List.of(20), result.steps());
  }
}

package io.canopy.it.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Runs sequences of operations on the model and on a system under test side by side and compares the outcomes. */
public final class ModelRunner {
  /** Step {@code index} ({@code op}) answered {@code actual} where the model said {@code expected}. */
  public record Divergence(int index, Op op, Outcome expected, Outcome actual) {
  }

  /**
   * A finished run: the steps that ran, the model's outcome of each (up to the diverging or unspecified step), and
   * the first divergence (null if none). {@code invalid}: the sequence reached a step whose HDFS behaviour the model
   * leaves unspecified, so it proves nothing.
   */
  public record Run(List<Op> steps, List<Outcome> outcomes, Divergence divergence, boolean invalid) {
  }

  /** A fresh model and a fresh system under test (e.g. on a new directory), for one replay. */
  public interface Fixture {
    HdfsModel model();

    FsUnderTest system();
  }

  /** Candidates drawn for one step before giving up: the generator avoids unspecified steps, it must not loop. */
  static final int MAX_DRAWS_PER_STEP = 1000;

  private ModelRunner() {
  }

  /**
   * Generates {@code count} steps, running each on both sides, then compares the whole tree; stops at the first
   * divergence.
   */
  public static Run generate(OpGenerator generator, int count, HdfsModel model, FsUnderTest system) {
    List<Op> steps = new ArrayList<>();
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Op op;
      Outcome expected;
      // Try each candidate on a copy first: the generator must not pick a step the model leaves unspecified.
      for (int draws = 1; ; draws++) {
        if (draws > MAX_DRAWS_PER_STEP) {
          throw new IllegalStateException(MAX_DRAWS_PER_STEP + " candidates for step " + (i + 1)
              + " were all unspecified by the model; the steps so far: " + steps);
        }
        op = generator.next(model);
        HdfsModel trial = model.copy();
        try {
          expected = trial.apply(op);
          model = trial;
          break;
        } catch (HdfsModel.Unspecified skipped) {
          // another step
        }
      }
      steps.add(op);
      outcomes.add(expected);
      Outcome actual = system.apply(op);
      if (!expected.sameAs(actual)) {
        return new Run(steps, outcomes, new Divergence(i, op, expected, actual), false);
      }
    }
    // The end state, everything at once: a difference no step happened to look at shows here.
    Op tree = new Op.Tree("/");
    Outcome expected = model.apply(tree);
    steps.add(tree);
    outcomes.add(expected);
    Outcome actual = system.apply(tree);
    if (!expected.sameAs(actual)) {
      return new Run(steps, outcomes, new Divergence(steps.size() - 1, tree, expected, actual), false);
    }
    return new Run(steps, outcomes, null, false);
  }

  /** Replays {@code steps} on a fresh fixture; stops at the first divergence or unspecified step. */
  public static Run replay(List<Op> steps, Fixture fixture) {
    HdfsModel model = fixture.model();
    List<Outcome> outcomes = new ArrayList<>();
    try (FsUnderTest system = fixture.system()) {
      for (int i = 0; i < steps.size(); i++) {
        Op op = steps.get(i);
        Outcome expected;
        try {
          expected = model.apply(op);
        } catch (HdfsModel.Unspecified e) {
          return new Run(steps.subList(0, i + 1), outcomes, null, true);
        }
        outcomes.add(expected);
        Outcome actual = system.apply(op);
        if (!expected.sameAs(actual)) {
          return new Run(steps.subList(0, i + 1), outcomes, new Divergence(i, op, expected, actual), false);
        }
      }
    }
    return new Run(steps, outcomes, null, false);
  }

  /**
   * Shrinks a diverging run to a shortest sequence that still diverges on the same kind of operation, each trial on
   * a fresh fixture; returns the shortest run found (its last step diverges).
   */
  public static Shrunk shrink(Run failing, Supplier<Fixture> fixtures, int maxTrials, Duration budget) {
    OpKind kind = failing.divergence().op().kind();
    Shrinker.Result<Op> result = Shrinker.shrink(failing.steps(), candidate -> {
      Run run = replay(candidate, fixtures.get());
      return run.divergence() != null && run.divergence().op().kind() == kind ? run.steps().size() : -1;
    }, maxTrials, budget);
    // Once more, for the outcomes of the shortest sequence (the search only kept its steps).
    Run shortest = replay(result.steps(), fixtures.get());
    return new Shrunk(shortest.divergence() != null ? shortest : failing, result.trials(), result.bounded());
  }

  public record Shrunk(Run run, int trials, boolean bounded) {
  }

  /** The sequence as numbered steps, the diverging one marked with both outcomes. */
  public static String describe(Run run) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < run.steps().size(); i++) {
      text.append(String.format("  %3d. %s%n", i + 1, run.steps().get(i)));
    }
    Divergence d = run.divergence();
    if (d != null) {
      text.append("  step ").append(d.index() + 1).append(" (").append(d.op()).append(")\n")
          .append("    HDFS model: ").append(d.expected()).append('\n')
          .append("    actual:     ").append(d.actual()).append('\n');
    }
    return text.toString();
  }
}

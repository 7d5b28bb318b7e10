package io.canopy.it.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Delta debugging (Zeller's ddmin) over a failing sequence of steps: removes ever smaller chunks while the failure
 * still reproduces, ending with single steps, so the result is 1-minimal (removing any one step makes it pass)
 * unless a bound stops it first. Each trial replays a candidate from scratch (the caller gives it a fresh directory).
 */
public final class Shrinker {
  /** Replays a candidate sequence. */
  @FunctionalInterface
  public interface Trial<T> {
    /**
     * -1 if {@code candidate} does not reproduce the failure; otherwise how many of its first steps do (the steps
     * after the failing one are dropped).
     */
    int reproduces(List<T> candidate);
  }

  /** The shortest sequence found, the trials spent, and whether a bound cut the search short. */
  public record Result<T>(List<T> steps, int trials, boolean bounded) {
  }

  private Shrinker() {
  }

  public static <T> Result<T> shrink(List<T> failing, Trial<T> trial, int maxTrials, Duration budget) {
    long deadline = System.nanoTime() + budget.toNanos();
    List<T> current = List.copyOf(failing);
    int trials = 0;
    int chunks = 2;
    while (current.size() >= 2) {
      boolean reduced = false;
      int size = current.size();
      for (int i = 0; i < chunks; i++) {
        int from = i * size / chunks;
        int to = (i + 1) * size / chunks;
        if (from == to) {
          continue;
        }
        if (trials >= maxTrials || System.nanoTime() > deadline) {
          return new Result<>(current, trials, true);
        }
        List<T> candidate = new ArrayList<>(current.subList(0, from));
        candidate.addAll(current.subList(to, size));
        trials++;
        int keep = trial.reproduces(candidate);
        if (keep >= 0) {
          current = List.copyOf(candidate.subList(0, keep));
          chunks = Math.max(chunks - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (chunks >= size) {
          break;
        }
        chunks = Math.min(chunks * 2, size);
      }
    }
    return new Result<>(current, trials, false);
  }
}

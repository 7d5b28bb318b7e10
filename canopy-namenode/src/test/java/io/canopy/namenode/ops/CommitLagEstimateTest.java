package io.canopy.namenode.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CommitLagEstimateTest {
  @Test
  void staysWithinItsBounds() {
    CommitLagEstimate estimate = new CommitLagEstimate();
    for (int i = 0; i < 1_000; i++) {
      estimate.missedOnFirstTry();
    }
    assertEquals(CommitLagEstimate.MAX_MICROS * 1_000, estimate.waitNanos());
    for (int i = 0; i < 10_000; i++) {
      estimate.foundOnFirstTry();
    }
    assertEquals(CommitLagEstimate.MIN_MICROS * 1_000, estimate.waitNanos());
    assertEquals(CommitLagEstimate.MAX_MICROS * 1_000, new CommitLagEstimate(Long.MAX_VALUE).waitNanos());
  }

  /**
   * Lags drawn from a skewed distribution (median 3 ms, a tail to 20 ms): once settled, about nine first tries in
   * ten find the commit, and the wait sits near the distribution's 90th percentile, far below the bound.
   */
  @Test
  void settlesWhereAboutNineFirstTriesInTenFindTheCommit() {
    Random random = new Random(20261128);
    CommitLagEstimate estimate = new CommitLagEstimate();
    int found = 0;
    int tries = 20_000;
    long waitedNanos = 0;
    for (int i = 0; i < 2_000 + tries; i++) {
      long lagNanos = (long) (3_000_000 * Math.exp(0.7 * random.nextGaussian()));
      long wait = estimate.waitNanos();
      boolean hit = lagNanos <= wait;
      if (hit) {
        estimate.foundOnFirstTry();
      } else {
        estimate.missedOnFirstTry();
      }
      if (i >= 2_000) {
        found += hit ? 1 : 0;
        waitedNanos += wait;
      }
    }
    double share = (double) found / tries;
    assertTrue(share > 0.85 && share < 0.95, "first tries that found the commit: " + share);
    double meanWaitMs = waitedNanos / 1e6 / tries;
    // the lag's 90th percentile is 3 ms * e^(0.7 * 1.28) = 7.3 ms
    assertTrue(meanWaitMs > 4 && meanWaitMs < 12, "mean wait " + meanWaitMs + " ms");
  }
}

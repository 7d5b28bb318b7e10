package io.canopy.namenode.membership;

import io.canopy.namenode.NameNodeConfig;

/**
 * Parameters of leader election. {@code roundMs} is the initial round time (the leader may raise it, up to
 * {@code maxRoundMs}, and the raised value is shared through the database); a namenode whose counter did not advance
 * for {@code missedRounds} rounds of an observer is dead to it; the leader's lease lasts
 * {@code missedRounds} rounds minus {@code marginMs}.
 */
public record ElectionSettings(long roundMs, int missedRounds, long maxRoundMs, long marginMs) {
  public ElectionSettings {
    if (roundMs < 10) {
      throw new IllegalArgumentException("election round time must be at least 10 ms, got " + roundMs);
    }
    if (missedRounds < 1) {
      throw new IllegalArgumentException("missed rounds before a namenode is dead must be at least 1, got "
          + missedRounds);
    }
    if (maxRoundMs < roundMs) {
      throw new IllegalArgumentException("maximum round time " + maxRoundMs + " ms is below the round time "
          + roundMs + " ms");
    }
    if (marginMs < 0 || marginMs >= missedRounds * roundMs) {
      throw new IllegalArgumentException("leader lease margin " + marginMs + " ms must be in [0, "
          + missedRounds * roundMs + ") ms");
    }
  }

  /** Defaults with a margin of half a round. */
  public static ElectionSettings of(long roundMs, int missedRounds) {
    return new ElectionSettings(roundMs, missedRounds, Math.max(roundMs, NameNodeConfig.ELECTION_MAX_ROUND_MS_DEFAULT),
        roundMs / 2);
  }
}

package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OperationMixTest {
  private static final long SEED = 8_675_309L;

  @Test
  void spotifySamplingMatchesTheWeightsWithinATenthOfAPercentagePoint() {
    OperationMix mix = OperationMix.spotify();
    int samples = 1_000_000;
    EnumMap<MixOperation, Integer> counts = new EnumMap<>(MixOperation.class);
    Random random = new Random(SEED);
    for (int i = 0; i < samples; i++) {
      counts.merge(mix.sample(random), 1, Integer::sum);
    }
    System.out.println("seed " + SEED + ": " + counts);
    for (MixOperation operation : MixOperation.values()) {
      double observedPercent = 100.0 * counts.getOrDefault(operation, 0) / samples;
      assertEquals(mix.percent(operation), observedPercent, 0.1, operation.label());
    }
  }

  @Test
  void spotifyWeightsAreThePapersAndSumTo100() {
    OperationMix mix = OperationMix.spotify();
    assertEquals(100.0, mix.totalWeight(), 1e-9);
    assertEquals(68.73, mix.percent(MixOperation.READ_FILE), 1e-9);
    assertEquals(2.7, mix.percent(MixOperation.CREATE_FILE), 1e-9);
    assertEquals(0.01, mix.percent(MixOperation.CHMOD_DIR), 1e-9);
    for (MixOperation operation : MixOperation.values()) {
      assertTrue(mix.weight(operation) > 0, operation + " has a weight in the Spotify mix");
    }
  }

  @Test
  void writeHeavyHasCreatesAt20AndTheRestScaledProportionally() {
    OperationMix spotify = OperationMix.spotify();
    OperationMix mix = OperationMix.writeHeavy();
    assertEquals(100.0, mix.totalWeight(), 1e-9);
    assertEquals(20.0, mix.percent(MixOperation.CREATE_FILE), 1e-9);
    double scale = 80.0 / 97.3;
    for (MixOperation operation : MixOperation.values()) {
      if (operation != MixOperation.CREATE_FILE) {
        assertEquals(spotify.percent(operation) * scale, mix.percent(operation), 1e-9, operation.label());
      }
    }
    System.out.println(mix.describe());
  }

  @Test
  void writeHeavyFromReadsTakesTheCreatesOutOfReads() {
    OperationMix mix = OperationMix.writeHeavyFromReads();
    assertEquals(100.0, mix.totalWeight(), 1e-9);
    assertEquals(20.0, mix.percent(MixOperation.CREATE_FILE), 1e-9);
    assertEquals(51.43, mix.percent(MixOperation.READ_FILE), 1e-9);
    assertEquals(13.04, mix.percent(MixOperation.STAT_FILE), 1e-9);
  }

  @Test
  void describeListsThePercentages() {
    String description = OperationMix.spotify().describe();
    assertTrue(description.startsWith("spotify: read file 68.73%, stat file 13.04%, ls dir 8.52%"), description);
    assertTrue(description.contains("create file 2.7%"), description);
    assertTrue(description.endsWith("mkdir 0.02%, chmod dir 0.01%"), description);
    assertTrue(OperationMix.writeHeavy().describe().contains("create file 20%"));
  }

  @Test
  void samplingIsDeterministicForASeedAndSkipsZeroWeights() {
    OperationMix mix = OperationMix.of("two", Map.of(MixOperation.MKDIR, 1.0, MixOperation.LS_DIR, 3.0));
    Random first = new Random(7);
    Random second = new Random(7);
    for (int i = 0; i < 1000; i++) {
      MixOperation operation = mix.sample(first);
      assertEquals(operation, mix.sample(second));
      assertTrue(operation == MixOperation.MKDIR || operation == MixOperation.LS_DIR, operation.toString());
    }
    assertEquals(75.0, mix.percent(MixOperation.LS_DIR), 1e-9);
    assertEquals("two: ls dir 75%, mkdir 25%", mix.describe());
  }

  @Test
  void rejectsNegativeOrAllZeroWeights() {
    assertThrows(IllegalArgumentException.class,
        () -> OperationMix.of("bad", Map.of(MixOperation.MKDIR, -1.0)));
    assertThrows(IllegalArgumentException.class, () -> OperationMix.of("empty", Map.of()));
    assertThrows(IllegalArgumentException.class, () -> OperationMix.named("nope"));
  }
}

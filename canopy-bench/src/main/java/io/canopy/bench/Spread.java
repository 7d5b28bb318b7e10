package io.canopy.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Median and range of repeated measurements of one figure. */
public record Spread(double median, double min, double max, int samples) {
  public static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no measurements");
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Spread(median, sorted.get(0), sorted.get(n - 1), n);
  }

  /** "1234 (1100-1300)" or just "1234" for a single sample. */
  public String format(String pattern) {
    String value = String.format(Locale.ROOT, pattern, median);
    if (samples == 1) {
      return value;
    }
    return value + " (" + String.format(Locale.ROOT, pattern, min) + "–" + String.format(Locale.ROOT, pattern, max)
        + ")";
  }
}

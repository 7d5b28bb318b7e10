package io.canopy.namenode.fs;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** HDFS orders names by their UTF-8 bytes, unsigned; so do listings and the lock order. */
public final class NameOrder {
  private NameOrder() {
  }

  /**
   * Compares without encoding: UTF-8's byte order is the code points' order, which is the UTF-16 chars' order up to
   * the first differing char unless a surrogate is involved (then the bytes decide). Lock planning compares every
   * component of a path on each step, so encoding both names each time was a measurable share of a call.
   */
  public static int compare(String left, String right) {
    int common = Math.min(left.length(), right.length());
    for (int i = 0; i < common; i++) {
      char l = left.charAt(i);
      char r = right.charAt(i);
      if (l != r) {
        if (Character.isSurrogate(l) || Character.isSurrogate(r)) {
          return Arrays.compareUnsigned(left.getBytes(StandardCharsets.UTF_8),
              right.getBytes(StandardCharsets.UTF_8));
        }
        return Character.compare(l, r);
      }
    }
    return Integer.compare(left.length(), right.length());
  }
}

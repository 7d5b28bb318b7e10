package io.canopy.namenode.fs;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** HDFS orders names by their UTF-8 bytes, unsigned; so do listings and the lock order. */
public final class NameOrder {
  private NameOrder() {
  }

  public static int compare(String left, String right) {
    return Arrays.compareUnsigned(left.getBytes(StandardCharsets.UTF_8), right.getBytes(StandardCharsets.UTF_8));
  }
}

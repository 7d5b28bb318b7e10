package io.canopy.client;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How a client picks the namenode for a call ({@value ClientConfig#NAMENODE_SELECTION}). */
public enum SelectionPolicy {
  /** Every call to a namenode picked at random. */
  RANDOM("random", true),
  /** Calls to the namenodes in turn. */
  ROUND_ROBIN("round-robin", true),
  /** The first namenode of the list, until it fails; then the next. */
  STICKY("sticky", false),
  /** A namenode picked at random, until it fails; then another one at random. */
  RANDOM_STICKY("random-sticky", false);

  private final String configName;
  private final boolean perCall;

  SelectionPolicy(String configName, boolean perCall) {
    this.configName = configName;
    this.perCall = perCall;
  }

  public String configName() {
    return configName;
  }

  /** True when every call picks its namenode anew; false when calls stay on one namenode until it fails. */
  public boolean perCall() {
    return perCall;
  }

  /** The policy named {@code name} (case and surrounding blanks ignored). */
  public static SelectionPolicy parse(String name) {
    String wanted = name == null ? "" : name.trim();
    for (SelectionPolicy policy : values()) {
      if (policy.configName.equalsIgnoreCase(wanted)) {
        return policy;
      }
    }
    throw new IllegalArgumentException("Unknown namenode selection policy '" + name + "' in "
        + ClientConfig.NAMENODE_SELECTION + ": use one of "
        + Arrays.stream(values()).map(SelectionPolicy::configName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return configName;
  }
}

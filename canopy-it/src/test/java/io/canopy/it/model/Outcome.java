package io.canopy.it.model;

import java.util.Objects;

/**
 * What one operation returned, normalized so that HDFS semantics can be compared: {@link #value} is compared (a
 * return value, the fields of a status, or the class of the exception); {@link #detail} (an exception's message) is
 * only printed.
 */
public record Outcome(String value, String detail) {
  public static Outcome ok(String value) {
    return new Outcome(value, "");
  }

  /** An exception, by its simple class name (a RemoteException by the class the server named). */
  public static Outcome threw(String exceptionClass, String message) {
    String simple = exceptionClass.substring(exceptionClass.lastIndexOf('.') + 1);
    return new Outcome("throws " + simple, message == null ? "" : message);
  }

  public boolean sameAs(Outcome other) {
    return value.equals(other.value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Outcome other && value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(value);
  }

  @Override
  public String toString() {
    return detail.isEmpty() ? value : value + " (" + firstLine(detail) + ")";
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}

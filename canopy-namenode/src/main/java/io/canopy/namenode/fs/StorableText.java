package io.canopy.namenode.fs;

import java.util.Locale;
import org.apache.hadoop.HadoopIllegalArgumentException;

/**
 * What the metadata database can store of a client's text. HDFS keeps names as Java strings and accepts any
 * character; PostgreSQL's {@code text} cannot hold U+0000 (the statement fails with SQLSTATE 22021), and an unpaired
 * UTF-16 surrogate is no Unicode character at all (the driver would silently turn it into '?'). Names holding either
 * are refused before any statement is sent, with a message that shows them escaped (a NUL as {@code \\u0000}), so
 * it prints.
 */
public final class StorableText {
  /** Longest text shown in a message; a path can be 8,000 characters. */
  private static final int SHOWN_CHARACTERS = 300;

  private StorableText() {
  }

  /** Why {@code text} cannot be stored, or null when it can (null text too). */
  public static String problem(String text) {
    if (text == null) {
      return null;
    }
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i); // an unpaired surrogate comes back as itself
      if (codePoint == 0) {
        return "holds a NUL character (U+0000), which Canopy cannot store";
      }
      if (isUnpairedSurrogate(codePoint)) {
        return "holds an unpaired UTF-16 surrogate (U+" + Integer.toHexString(codePoint).toUpperCase(Locale.ROOT)
            + "), which is not a Unicode character";
      }
      i += Character.charCount(codePoint);
    }
    return null;
  }

  private static boolean isUnpairedSurrogate(int codePoint) {
    return Character.charCount(codePoint) == 1 && Character.isSurrogate((char) codePoint);
  }

  /**
   * Refuses a name Canopy cannot store with HDFS's exception for a bad argument, e.g. {@code client name
   * "a\\u0000b" holds a NUL character (U+0000), which Canopy cannot store}.
   */
  public static void require(String what, String text) {
    String problem = problem(text);
    if (problem != null) {
      throw new HadoopIllegalArgumentException(what + " \"" + shown(text) + "\" " + problem);
    }
  }

  /**
   * {@code text} as a message shows it: control characters and unpaired surrogates in Java's escaped form (a NUL as
   * {@code \\u0000}), cut to a few hundred characters.
   */
  public static String shown(String text) {
    StringBuilder shown = new StringBuilder();
    int end = Math.min(text.length(), SHOWN_CHARACTERS);
    for (int i = 0; i < end; ) {
      int codePoint = text.codePointAt(i);
      if (Character.isISOControl(codePoint) || isUnpairedSurrogate(codePoint)) {
        shown.append(String.format("\\u%04x", codePoint));
      } else {
        shown.appendCodePoint(codePoint);
      }
      i += Character.charCount(codePoint);
    }
    if (end < text.length()) {
      shown.append("...(").append(text.length()).append(" characters)");
    }
    return shown.toString();
  }
}

package io.canopy.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The live namenode list a namenode answers to Hadoop's {@code GenericRefreshProtocol} for the identifier
 * {@value #IDENTIFIER}: one line per namenode, {@code id<TAB>host:port<TAB>locationDomainId<TAB>leader|member},
 * each ended by a newline, in the order the namenode gave them (id order). The namenode formats it, the client
 * parses it; both use this class so the two sides cannot drift apart.
 */
public final class NamenodeList {
  /** The refresh identifier namenodes answer with their live namenode list. */
  public static final String IDENTIFIER = "canopy.namenodes";

  private static final String LEADER = "leader";
  private static final String MEMBER = "member";
  private static final String LINE_FORMAT = "id<TAB>host:port<TAB>locationDomainId<TAB>leader|member";

  /** One live namenode: its membership id, where clients reach it, its location domain (0: none), its role. */
  public record Entry(long id, String rpcAddress, int locationDomainId, boolean leader) {
    public Entry {
      if (id <= 0) {
        throw new IllegalArgumentException("namenode id must be positive, got " + id);
      }
      if (rpcAddress == null || !isHostAndPort(rpcAddress)) {
        throw new IllegalArgumentException("namenode " + id + " has no valid host:port RPC address: '"
            + rpcAddress + "'");
      }
      if (locationDomainId < 0) {
        throw new IllegalArgumentException("namenode " + id + " has a negative location domain id "
            + locationDomainId);
      }
    }
  }

  private NamenodeList() {
  }

  /** The message for {@code entries}; refuses two entries with one id, or more than one leader. */
  public static String format(List<Entry> entries) {
    checkConsistent(entries);
    StringBuilder message = new StringBuilder();
    for (Entry entry : entries) {
      message.append(entry.id()).append('\t').append(entry.rpcAddress()).append('\t')
          .append(entry.locationDomainId()).append('\t').append(entry.leader() ? LEADER : MEMBER).append('\n');
    }
    return message.toString();
  }

  /**
   * The entries of {@code message}, in its order.
   *
   * @throws IllegalArgumentException naming the line and what was expected when the message is malformed
   */
  public static List<Entry> parse(String message) {
    if (message == null) {
      throw new IllegalArgumentException("the namenode list message is missing");
    }
    List<Entry> entries = new ArrayList<>();
    if (message.isEmpty()) {
      return entries;
    }
    if (!message.endsWith("\n")) {
      throw new IllegalArgumentException("malformed namenode list: the last line is not ended by a newline"
          + " (truncated message?): '" + lastLine(message) + "'");
    }
    String[] lines = message.substring(0, message.length() - 1).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      entries.add(parseLine(lines[i], i + 1));
    }
    checkConsistent(entries);
    return entries;
  }

  private static Entry parseLine(String line, int number) {
    String[] fields = line.split("\t", -1);
    if (fields.length != 4) {
      throw malformed(number, line, "4 tab-separated fields, found " + fields.length);
    }
    long id;
    int locationDomainId;
    try {
      id = Long.parseLong(fields[0]);
      locationDomainId = Integer.parseInt(fields[2]);
    } catch (NumberFormatException e) {
      throw malformed(number, line, "a numeric id and location domain id");
    }
    boolean leader;
    if (fields[3].equals(LEADER)) {
      leader = true;
    } else if (fields[3].equals(MEMBER)) {
      leader = false;
    } else {
      throw malformed(number, line, "role '" + LEADER + "' or '" + MEMBER + "', found '" + fields[3] + "'");
    }
    try {
      return new Entry(id, fields[1], locationDomainId, leader);
    } catch (IllegalArgumentException e) {
      throw malformed(number, line, e.getMessage());
    }
  }

  private static void checkConsistent(List<Entry> entries) {
    Set<Long> ids = new HashSet<>();
    long leaders = 0;
    for (Entry entry : entries) {
      if (!ids.add(entry.id())) {
        throw new IllegalArgumentException("malformed namenode list: namenode " + entry.id() + " is listed twice");
      }
      if (entry.leader()) {
        leaders++;
      }
    }
    if (leaders > 1) {
      throw new IllegalArgumentException("malformed namenode list: " + leaders + " namenodes are marked leader");
    }
  }

  private static IllegalArgumentException malformed(int number, String line, String expected) {
    return new IllegalArgumentException("malformed namenode list line " + number + " '" + line.replace("\t", "\\t")
        + "': expected " + LINE_FORMAT + " (" + expected + ")");
  }

  private static String lastLine(String message) {
    return message.substring(message.lastIndexOf('\n') + 1).replace("\t", "\\t");
  }

  /** host:port with a non-empty host free of whitespace and a port in 1..65535. */
  static boolean isHostAndPort(String address) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      return false;
    }
    for (int i = 0; i < colon; i++) {
      if (Character.isWhitespace(address.charAt(i))) {
        return false;
      }
    }
    try {
      int port = Integer.parseInt(address.substring(colon + 1));
      return port > 0 && port <= 65535;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}

package io.canopy.namenode.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * docs/compatibility.md lists every ClientProtocol call with its status. This keeps the page true: every call of the
 * protocol has exactly one row, and a call is "supported" exactly when the RPC server has a method for it (the
 * calls Canopy does not serve, snapshots included, are {@link UnsupportedClientCalls}'; satisfyStoragePolicy, served
 * only to refuse with a specific error, is the one listed exception).
 */
class CompatibilityPageTest {
  private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)` \\| (supported|not supported) \\|");
  /** Calls served by a method that only refuses them with a specific error. */
  private static final Set<String> REFUSED_BY_METHOD = Set.of("satisfyStoragePolicy");

  @Test
  void everyCallIsListedWithItsTrueStatus() throws IOException {
    Path page = Path.of("..", "docs", "compatibility.md");
    assertTrue(Files.exists(page), "run from the canopy-namenode module directory: " + page.toAbsolutePath());
    Map<String, Boolean> listed = new LinkedHashMap<>();
    for (String line : Files.readAllLines(page)) {
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        Boolean previous = listed.put(row.group(1), row.group(2).equals("supported"));
        assertEquals(null, previous, "listed twice: " + row.group(1));
      }
    }
    Set<String> calls = new TreeSet<>();
    for (Method method : ClientProtocol.class.getMethods()) {
      calls.add(method.getName());
    }
    assertEquals(calls, new TreeSet<>(listed.keySet()), "the page's calls against ClientProtocol's");

    Set<String> served = new TreeSet<>();
    for (Method method : ClientProtocolServer.class.getDeclaredMethods()) {
      if (Modifier.isPublic(method.getModifiers()) && !method.isBridge()) { // not the refusals javac bridges
        served.add(method.getName());
      }
    }
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, Boolean> call : listed.entrySet()) {
      boolean hasMethod = served.contains(call.getKey()) && !REFUSED_BY_METHOD.contains(call.getKey());
      if (hasMethod != call.getValue()) {
        wrong.add(call.getKey() + " is listed " + (call.getValue() ? "supported" : "not supported"));
      }
    }
    assertEquals(List.of(), wrong, "rows whose status does not match the RPC server");
  }
}

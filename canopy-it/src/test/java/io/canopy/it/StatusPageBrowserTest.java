package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The namenode's status page loaded in a real headless browser (Debian's Chromium): after its scripts ran, the page
 * shows both namenodes with the leader, the live datanodes, the namespace's counts and the operations. With
 * {@code -Dcanopy.it.screenshot=FILE} it also saves a screenshot (docs/status-page.png comes from it).
 */
@Timeout(600)
class StatusPageBrowserTest {
  private static final int FILES = 7;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> {
        conf.setLong(NameNodeConfig.STATUS_INTERVAL_MS, 300);
        conf.setLong(NameNodeConfig.CENSUS_INTERVAL_MS, 1_000);
        conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 300);
      })
      .nameNodes(2).dataNodes(3).awaitLeader().build();

  @TempDir
  java.nio.file.Path scratch;

  @Test
  void thePageShowsTheClusterAfterItsScriptsRan() throws Exception {
    HeadlessChromium chromium = HeadlessChromium.get();
    for (int i = 0; i < FILES; i++) {
      TestFiles.write(CLUSTER.fileSystem(1), new Path("/page/f" + i), TestFiles.randomBytes(2_000, i));
    }
    int port = CLUSTER.cluster().nameNode(1).httpAddress().getPort();
    String base = "http://127.0.0.1:" + port;
    Await.until("the status counts the page's files", Duration.ofSeconds(60), () -> {
      String json = new String(new URL(base + "/status.json").openStream().readAllBytes(), StandardCharsets.UTF_8);
      return json.contains("\"files\":" + FILES) && json.contains("\"create\"");
    });
    String dom = chromium.renderedDom(base + "/", scratch);

    assertTrue(dom.contains("<h1>Canopy namenode <span id=\"self\">#"), "the page's script ran: " + dom);
    String namenodes = table(dom, "namenodes");
    assertEquals(2, count(namenodes, "<tr>") - 1, namenodes);
    assertEquals(1, count(namenodes, ">leader</td>"), namenodes);
    for (int i = 0; i < 2; i++) {
      int httpPort = CLUSTER.cluster().nameNode(i).httpAddress().getPort();
      assertTrue(namenodes.contains("127.0.0.1:" + httpPort), "links to every namenode's page: " + namenodes);
    }
    String datanodes = table(dom, "datanodes");
    assertEquals(3, count(datanodes, "<td>live</td>"), datanodes);
    String namespace = table(dom, "namespace");
    assertTrue(namespace.contains("<td>files</td><td class=\"number\">" + FILES + "</td>"), namespace);
    assertTrue(table(dom, "blocks").contains("<td>missing blocks</td><td class=\"number\">0</td>"), dom);
    assertTrue(table(dom, "operations").contains("<td>create</td>"), table(dom, "operations"));

    String screenshot = System.getProperty("canopy.it.screenshot");
    if (screenshot != null && !screenshot.isBlank()) {
      java.nio.file.Path png = java.nio.file.Path.of(screenshot);
      chromium.screenshot(base + "/", png, 1280, 1500, scratch);
      assertTrue(Files.size(png) > 10_000, "a screenshot of the page: " + png);
    }
  }

  /** The HTML of the table with id {@code id}. */
  private static String table(String dom, String id) throws IOException {
    Matcher matcher = Pattern.compile("<table id=\"" + id + "\">(.*?)</table>", Pattern.DOTALL).matcher(dom);
    if (!matcher.find()) {
      throw new IOException("no table " + id + " in the page: " + dom);
    }
    return matcher.group(1);
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      count++;
    }
    return count;
  }
}

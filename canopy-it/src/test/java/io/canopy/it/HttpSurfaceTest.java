package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.JsonSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every namenode's HTTP server besides WebHDFS: {@code /status.json} (what the status page shows), the metrics
 * sources through {@code /jmx} and {@code /prom}, and Hadoop's {@code /conf}, {@code /stacks}, {@code /logLevel}.
 */
@Timeout(300)
class HttpSurfaceTest {
  private static final int FILES = 12;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> {
        conf.setLong(NameNodeConfig.STATUS_INTERVAL_MS, 300);
        conf.setLong(NameNodeConfig.CENSUS_INTERVAL_MS, 1_000);
        conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 300);
      })
      .nameNodes(2).dataNodes(3).awaitLeader().build();

  @Test
  void statusShowsNamenodesDatanodesNamespaceAndOperations() throws Exception {
    for (int i = 0; i < FILES; i++) {
      TestFiles.write(CLUSTER.fileSystem(0), new Path("/http/status/f" + i), TestFiles.randomBytes(100 + i, i));
    }
    CLUSTER.fileSystem(0).mkdirs(new Path("/http/status/sub"));
    Await.until("the status counts the files and both namenodes", Duration.ofSeconds(60), () -> {
      Map<String, Object> status = status(0);
      Map<String, Object> namespace = map(status.get("namespace"));
      return namespace != null && number(namespace.get("files")) >= FILES
          && list(status.get("namenodes")).size() == 2 && operation(status, "create", "total") >= FILES;
    });
    Map<String, Object> status = status(0);
    List<Object> namenodes = list(status.get("namenodes"));
    assertEquals(1, namenodes.stream().filter(n -> Boolean.TRUE.equals(map(n).get("leader"))).count());
    for (int i = 0; i < 2; i++) {
      String http = "127.0.0.1:" + CLUSTER.cluster().nameNode(i).httpAddress().getPort();
      assertTrue(namenodes.stream().anyMatch(n -> http.equals(map(n).get("httpAddress"))),
          "every namenode publishes its HTTP address: " + namenodes);
    }
    List<Object> datanodes = list(status.get("datanodes"));
    assertEquals(3, datanodes.size());
    assertTrue(datanodes.stream().allMatch(d -> Boolean.TRUE.equals(map(d).get("live"))), datanodes.toString());
    assertTrue(number(map(status.get("namespace")).get("directories")) >= 3, status.toString());
    assertEquals(0, number(map(status.get("blocks")).get("missing")));
    assertTrue(operation(status, "create", "p99Ms") >= 0);
    assertEquals(status.get("clusterId"), status(1).get("clusterId"), "both namenodes serve one cluster");
  }

  @Test
  void metricsArePublishedThroughJmxAndPrometheus() throws Exception {
    for (int i = 0; i < 5; i++) {
      TestFiles.write(CLUSTER.fileSystem(0), new Path("/http/metrics/f" + i), TestFiles.randomBytes(10, i));
    }
    Await.until("FSNamesystem and NameNodeActivity in /jmx", Duration.ofSeconds(60), () -> {
      Map<String, Object> namesystem = bean("name=FSNamesystem");
      Map<String, Object> activity = bean("name=NameNodeActivity");
      return namesystem != null && activity != null && number(namesystem.get("FilesTotal")) >= 5
          && number(namesystem.get("NumLiveDataNodes")) == 3 && number(activity.get("CreateFileOps")) >= 5;
    });
    Map<String, Object> namesystem = bean("name=FSNamesystem");
    assertEquals("active", namesystem.get("tag.HAState"));
    assertTrue(number(namesystem.get("CapacityTotal")) > 0, namesystem.toString());
    assertEquals(2, number(namesystem.get("NumLiveNamenodes")));
    Map<String, Object> activity = bean("name=NameNodeActivity");
    assertTrue(number(activity.get("CreateNumOps")) >= 5, activity.toString());
    assertTrue(activity.containsKey("CreateLatency99thPercentileMs"), activity.toString());
    assertTrue(number(activity.get("CreateRoundTripsPerOp")) > 0, activity.toString());
    assertTrue(bean("name=RpcActivityForPort" + CLUSTER.cluster().nameNode(0).address().getPort()) != null,
        "Hadoop's RPC server publishes its own metrics");

    Await.until("/prom lists the namenode's metrics", Duration.ofSeconds(60),
        () -> get(0, "/prom").contains("name_node_activity_create_file_ops"));
    String prometheus = get(0, "/prom");
    assertTrue(prometheus.contains("# TYPE fs_namesystem_files_total gauge"), prometheus);
  }

  @Test
  void hadoopsServletsAnswer() throws Exception {
    assertTrue(get(0, "/conf").contains("canopy.namenode.http-address"));
    assertTrue(get(0, "/stacks").contains("Thread"));
    assertTrue(get(0, "/logLevel?log=io.canopy.namenode.NameNode").contains("Effective Level"));
    String page = get(1, "/");
    assertTrue(page.contains("<title>Canopy namenode</title>") && page.contains("status.json"), page);
  }

  /** The bean of a live namenode of this JVM whose name contains {@code nameFragment}, or null. */
  private static Map<String, Object> bean(String nameFragment) throws IOException {
    Map<String, Object> document = JsonSerialization.mapReader().readValue(get(0, "/jmx?qry=Hadoop:*"));
    for (Object bean : list(document.get("beans"))) {
      Map<String, Object> fields = map(bean);
      String name = String.valueOf(fields.get("name"));
      if (name.contains(nameFragment) && String.valueOf(fields.getOrDefault("tag.NamenodeId", ""))
          .equals(Long.toString(CLUSTER.cluster().nameNode(0).election().selfId()))) {
        return fields;
      }
      if (name.contains(nameFragment) && !fields.containsKey("tag.NamenodeId")) {
        return fields;
      }
    }
    return null;
  }

  private static double operation(Map<String, Object> status, String name, String field) {
    Map<String, Object> operation = map(map(status.get("operations")).get(name));
    return operation == null ? -1 : number(operation.get(field));
  }

  private static Map<String, Object> status(int namenode) throws IOException {
    return JsonSerialization.mapReader().readValue(get(namenode, "/status.json"));
  }

  private static String get(int namenode, String pathAndQuery) throws IOException {
    URL url = new URL("http://127.0.0.1:" + CLUSTER.cluster().nameNode(namenode).httpAddress().getPort()
        + pathAndQuery);
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    connection.setConnectTimeout(10_000);
    connection.setReadTimeout(30_000);
    assertEquals(200, connection.getResponseCode(), url.toString());
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value) {
    return (List<Object>) value;
  }

  private static double number(Object value) {
    return value == null ? -1 : ((Number) value).doubleValue();
  }
}

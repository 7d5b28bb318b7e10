package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process that runs a local cluster's datanodes (design 014): when one of them cannot start, the process exits
 * with status 1 at once, even though the datanodes started before it hold non-daemon threads.
 */
@Timeout(120)
class DataNodeMainTest {
  private static final long EXIT_WAIT_SECONDS = 60;

  @TempDir
  Path work;

  @Test
  void aDatanodeThatCannotStartEndsTheWholeProcess() throws Exception {
    Path conf = Files.createDirectories(work.resolve("etc"));
    // A namenode address nobody answers on: the first datanode starts and keeps retrying to register.
    Files.writeString(conf.resolve("core-site.xml"), "<configuration><property><name>fs.defaultFS</name>"
        + "<value>hdfs://127.0.0.1:1</value></property></configuration>");
    Path notADirectory = Files.writeString(work.resolve("plain-file"), "x");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.net=ALL-UNNAMED", "-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"), "io.canopy.datanode.DataNodeMain",
        conf.toString(), work.resolve("dn1").toString(), conf.toString(), notADirectory.resolve("dn2").toString()));
    Path log = work.resolve("datanodes.log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(log.toFile()).start();
    try {
      assertTrue(process.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS),
          "the process still runs " + EXIT_WAIT_SECONDS + " s after its second datanode failed to start");
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(1, process.exitValue(), output);
      assertTrue(output.contains("A datanode of this process failed") && output.contains("plain-file"), output);
    } finally {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}

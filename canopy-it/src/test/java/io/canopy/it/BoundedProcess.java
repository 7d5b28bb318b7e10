package io.canopy.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an outside program the tests need (pip, Python, Chromium, apt-get) to its end within a bound: its standard
 * output (and error, unless sent to a file) read as it runs, the process killed at the bound.
 */
record BoundedProcess(int exitCode, String output, boolean timedOut) {
  /** Runs {@code command} for at most {@code timeoutSeconds}; standard error to {@code errors}, or merged when null. */
  static BoundedProcess run(List<String> command, long timeoutSeconds, File errors)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command);
    if (errors == null) {
      builder.redirectErrorStream(true);
    } else {
      builder.redirectError(errors);
    }
    Process process = builder.start();
    byte[][] output = {new byte[0]};
    Thread reader = new Thread(() -> {
      try {
        output[0] = process.getInputStream().readAllBytes();
      } catch (IOException e) {
        output[0] = ("(output lost: " + e + ")").getBytes(StandardCharsets.UTF_8);
      }
    }, "bounded-process-output");
    reader.start();
    try {
      boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
      if (!ended) {
        process.destroyForcibly();
      }
      reader.join(10_000);
      return new BoundedProcess(ended ? process.exitValue() : -1, new String(output[0], StandardCharsets.UTF_8),
          !ended);
    } finally {
      process.destroyForcibly();
    }
  }

  /** The output as bytes (a page's DOM, a document). */
  byte[] bytes() {
    return output.getBytes(StandardCharsets.UTF_8);
  }
}

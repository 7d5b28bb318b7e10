package io.canopy.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Chromium, headless, for the tests that load a page in a real browser: found on the PATH (or
 * {@code -Dcanopy.it.chromium=PATH}); when missing on a Debian machine where the build runs as root, installed
 * once with apt-get ({@code chromium}), bounded in time. A test that cannot have it is skipped with the reason.
 */
final class HeadlessChromium {
  private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");
  private static final long INSTALL_TIMEOUT_SECONDS = 900;
  private static final long PAGE_TIMEOUT_SECONDS = 90;
  /** Virtual time the page's scripts get before the DOM is taken: its fetches of status.json end well within it. */
  private static final int SCRIPT_BUDGET_MS = 5_000;

  private final Path executable;

  private HeadlessChromium(Path executable) {
    this.executable = executable;
  }

  /** The browser, installed first if it can be; skips the calling test with the reason when it cannot. */
  static synchronized HeadlessChromium get() throws IOException, InterruptedException {
    Optional<Path> found = find();
    if (found.isEmpty()) {
      String reason = install();
      found = find();
      Assumptions.assumeTrue(found.isPresent(), () -> "Chromium is not installed and could not be installed ("
          + reason + "); install Debian's chromium package, or name a browser with -Dcanopy.it.chromium=PATH");
    }
    return new HeadlessChromium(found.get());
  }

  /** The page's DOM once its scripts ran: what a person would see, as HTML. */
  String renderedDom(String url, Path scratch) throws IOException, InterruptedException {
    return new String(run(scratch, "--virtual-time-budget=" + SCRIPT_BUDGET_MS, "--dump-dom", url),
        StandardCharsets.UTF_8);
  }

  /** A PNG screenshot of the page once its scripts ran. */
  void screenshot(String url, Path png, int width, int height, Path scratch) throws IOException, InterruptedException {
    run(scratch, "--virtual-time-budget=" + SCRIPT_BUDGET_MS, "--window-size=" + width + "," + height,
        "--hide-scrollbars", "--screenshot=" + png.toAbsolutePath(), url);
    if (!Files.exists(png) || Files.size(png) == 0) {
      throw new IOException("Chromium wrote no screenshot to " + png);
    }
  }

  private byte[] run(Path scratch, String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + scratch.resolve("profile")));
    command.addAll(List.of(arguments));
    Path errors = scratch.resolve("chromium.err");
    BoundedProcess result = BoundedProcess.run(command, PAGE_TIMEOUT_SECONDS, errors.toFile());
    if (result.timedOut()) {
      throw new IOException("Chromium did not finish within " + PAGE_TIMEOUT_SECONDS + " s: " + command);
    }
    if (result.exitCode() != 0) {
      throw new IOException("Chromium failed (exit " + result.exitCode() + "): " + Files.readString(errors));
    }
    return result.bytes();
  }

  private static Optional<Path> find() {
    String configured = System.getProperty("canopy.it.chromium");
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured)).filter(Files::isExecutable);
    }
    for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      for (String name : NAMES) {
        Path candidate = Path.of(directory, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /** Installs Debian's chromium when the machine allows it; the reason it did not otherwise. */
  private static String install() throws IOException, InterruptedException {
    if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
      return "no apt-get on this machine";
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      return "the build does not run as root, so it cannot run apt-get";
    }
    System.out.println("Installing Debian's chromium package for the browser tests (apt-get)...");
    BoundedProcess result = BoundedProcess.run(List.of("bash", "-c", "apt-get update -qq && "
        + "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"), INSTALL_TIMEOUT_SECONDS, null);
    if (result.timedOut()) {
      return "apt-get did not finish within " + INSTALL_TIMEOUT_SECONDS + " s";
    }
    String text = result.output().strip();
    return result.exitCode() == 0 ? "installed" : "apt-get failed: " + text.substring(Math.max(0, text.length() - 500));
  }
}

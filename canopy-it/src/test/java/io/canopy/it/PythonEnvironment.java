package io.canopy.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The Python the Python tests run: a virtual environment under {@code target/python-venv} made from the machine's
 * {@code python3} (or {@code -Dcanopy.it.python=PATH}) with the packages of {@code src/test/python/requirements.txt},
 * installed by pip from the package index on first use and again when the requirements change (a stamp file holds
 * their hash). Each step is bounded; a failure names the step and shows its output.
 */
final class PythonEnvironment {
  static final Path SOURCES = Path.of("src", "test", "python");
  private static final Path VENV = Path.of("target", "python-venv");
  private static final Path STAMP = VENV.resolve("canopy-requirements.sha256");
  private static final long SETUP_TIMEOUT_SECONDS = 900;

  private PythonEnvironment() {
  }

  /** The environment's python, set up first when missing or made for other requirements. */
  static synchronized Path python() throws IOException, InterruptedException {
    Path requirements = SOURCES.resolve("requirements.txt");
    String wanted = sha256(Files.readAllBytes(requirements));
    Path python = VENV.resolve("bin").resolve("python");
    if (Files.isExecutable(python) && Files.exists(STAMP) && Files.readString(STAMP).trim().equals(wanted)) {
      return python;
    }
    String basePython = System.getProperty("canopy.it.python", "python3");
    run("create the virtual environment " + VENV + " with " + basePython, List.of(basePython, "-m", "venv", "--clear",
        VENV.toString()));
    run("install " + requirements + " with pip", List.of(python.toString(), "-m", "pip", "install",
        "--disable-pip-version-check", "-q", "-r", requirements.toString()));
    Files.writeString(STAMP, wanted + "\n");
    return python;
  }

  /** Runs {@code command} to its end within the setup bound; fails with its output when it does not succeed. */
  private static void run(String step, List<String> command) throws IOException, InterruptedException {
    BoundedProcess result = BoundedProcess.run(command, SETUP_TIMEOUT_SECONDS, null);
    if (result.timedOut()) {
      throw new IOException("Python test setup: could not " + step + " within " + SETUP_TIMEOUT_SECONDS + " s");
    }
    if (result.exitCode() != 0) {
      throw new IOException("Python test setup: could not " + step + " (exit " + result.exitCode() + "; needs "
          + "python3 with venv, and the package index for pip):\n" + result.output());
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

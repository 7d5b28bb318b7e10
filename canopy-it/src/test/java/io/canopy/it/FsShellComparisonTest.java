package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop's {@link FsShell}, the commands users type, run in the same order against Apache HDFS 3.5.0
 * ({@link ApacheHdfsCluster}) and against Canopy: exit codes, standard output and standard error must be the same
 * after {@link #normalize} (namenode authority, local directories, dates, {@code -df} figures), and so must the local
 * files {@code -get}/{@code -getmerge} write. Both clusters have the same block size, bytes per checksum and
 * replication, so {@code -checksum} must match byte for byte. ({@link FsShellTest} checks a Canopy session by itself.)
 */
@Timeout(300)
class FsShellComparisonTest {
  /** Three blocks and a bit: several blocks for -checksum, -du and -getmerge. */
  static final long BLOCK_SIZE = 1024 * 1024;
  static final int BYTES_PER_CHECKSUM = 512;
  static final short REPLICATION = 2;
  /**
   * Commands that need calls added by issue 6 ({@code -appendToFile}: append, {@code -test -r/-w}: checkAccess, the
   * quota steps: setQuota) always run now that Canopy serves them; {@code -Dcanopy.shell.gated=probe} runs each only
   * when a probe on Canopy shows the call served (for a build that lacks one).
   */
  static final String GATED_PROPERTY = "canopy.shell.gated";

  @TempDir
  static Path directory;
  static ApacheHdfsCluster hdfs;
  static MiniCanopyCluster canopy;
  static Target hdfsTarget;
  static Target canopyTarget;
  static boolean appendServed;
  static boolean checkAccessServed;
  static boolean quotaServed;

  /** One side of the comparison: where FsShell points and where its local output goes. */
  record Target(String name, String uri, Configuration conf, Path local) {
  }

  /** What one command did. */
  record Result(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\n    stdout: " + indent(out) + "\n    stderr: " + indent(err);
    }
  }

  @BeforeAll
  static void startClusters() throws IOException {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong("dfs.blocksize", BLOCK_SIZE);
    conf.setInt("dfs.bytes-per-checksum", BYTES_PER_CHECKSUM);
    conf.setInt("dfs.replication", REPLICATION);
    hdfs = ApacheHdfsCluster.start(directory.resolve("hdfs"), conf, REPLICATION);
    canopy = MiniCanopyCluster.start(directory.resolve("canopy"), conf, 1, REPLICATION);
    hdfsTarget = target("hdfs", hdfs.uri(), hdfs.conf());
    canopyTarget = target("canopy", canopy.uri(), canopy.conf());
    boolean force = !System.getProperty(GATED_PROPERTY, "run").equals("probe");
    appendServed = force || served(() -> {
      org.apache.hadoop.fs.Path probe = new org.apache.hadoop.fs.Path("/probe-append");
      FileSystem fs = canopy.fileSystem();
      fs.create(probe).close();
      try {
        fs.append(probe).close();
      } finally {
        fs.delete(probe, false);
      }
    });
    quotaServed = force || served(() -> {
      org.apache.hadoop.fs.Path probe = new org.apache.hadoop.fs.Path("/probe-quota");
      DistributedFileSystem fs = canopy.fileSystem();
      fs.mkdirs(probe);
      try {
        fs.setQuota(probe, 10, HdfsConstants.QUOTA_DONT_SET);
      } finally {
        fs.delete(probe, true);
      }
    });
    checkAccessServed = force || served(() -> canopy.fileSystem().access(new org.apache.hadoop.fs.Path("/"),
        org.apache.hadoop.fs.permission.FsAction.READ));
  }

  interface Probe {
    void run() throws IOException;
  }

  /** False when Canopy answers the probe's call with "not supported". */
  private static boolean served(Probe probe) throws IOException {
    try {
      probe.run();
      return true;
    } catch (org.apache.hadoop.ipc.RemoteException e) {
      if (e.getClassName().equals(UnsupportedOperationException.class.getName())) {
        System.out.println("FsShell comparison: not comparing what needs " + e.getMessage());
        return false;
      }
      throw e;
    }
  }

  private static Target target(String name, String uri, Configuration clusterConf) throws IOException {
    Configuration conf = new Configuration(clusterConf);
    conf.set("fs.defaultFS", uri);
    Path local = directory.resolve("local-" + name);
    Files.createDirectories(local);
    return new Target(name, uri, conf, local);
  }

  @AfterAll
  static void stopClusters() throws IOException {
    for (Target target : new Target[] {hdfsTarget, canopyTarget}) {
      if (target != null) {
        // FsShell's clients are FileSystem's cached instances.
        FileSystem.get(URI.create(target.uri()), target.conf()).close();
      }
    }
    if (canopy != null) {
      canopy.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** The local files every command reads, the same for both sides. */
  private static Path prepareInput() throws IOException {
    Path in = directory.resolve("in");
    Files.createDirectories(in);
    Files.write(in.resolve("big.bin"), TestFiles.randomBytes((int) (3 * BLOCK_SIZE + 12345), 17));
    Files.writeString(in.resolve("one.txt"), "first file\n", StandardCharsets.UTF_8);
    Files.writeString(in.resolve("two.txt"), "second file\nwith two lines\n", StandardCharsets.UTF_8);
    Files.writeString(in.resolve("more.txt"), "appended text\n", StandardCharsets.UTF_8);
    Files.write(in.resolve("empty"), new byte[0]);
    return in;
  }

  /** The session: each command as a user types it; {@code {in}} and {@code {out}} are local directories. */
  private static List<String[]> script() {
    List<String[]> script = new ArrayList<>();
    // Building a tree.
    add(script, "-mkdir -p /shell/in/deep /shell/other");
    add(script, "-put {in}/big.bin {in}/one.txt {in}/two.txt {in}/empty /shell/in");
    add(script, "-put {in}/one.txt /shell/in/deep/copy.txt");
    add(script, "-touchz /shell/in/zero");
    add(script, "-ls /shell");
    add(script, "-ls -R /shell");
    add(script, "-ls -d /shell/in");
    add(script, "-ls -h /shell/in");
    add(script, "-ls -S -r /shell/in");
    add(script, "-ls -t /shell/in/deep");
    add(script, "-ls /shell/in/big.bin");
    add(script, "-cat /shell/in/one.txt /shell/in/two.txt");
    add(script, "-text /shell/in/two.txt");
    add(script, "-head /shell/in/two.txt");
    add(script, "-tail /shell/in/two.txt");
    // Reading back.
    add(script, "-get /shell/in/big.bin {out}/big.bin");
    add(script, "-copyToLocal /shell/in/one.txt {out}/one.txt");
    add(script, "-get /shell/in/deep {out}/deep");
    add(script, "-getmerge /shell/in/one.txt /shell/in/two.txt {out}/merged.txt");
    add(script, "-getmerge -nl /shell/in/deep {out}/merged-nl.txt");
    // Usage and counts.
    add(script, "-du /shell");
    add(script, "-du -s /shell");
    add(script, "-du -s -h /shell/in");
    add(script, "-du -v /shell/in/deep");
    add(script, "-count /shell");
    add(script, "-count -q /shell");
    add(script, "-count -q -h -v /shell/in");
    add(script, "-count /shell/in/big.bin");
    add(script, "-count -e /shell");
    add(script, "-count -s /shell");
    add(script, "-ls -e /shell/in");
    add(script, "-ls -C -R /shell");
    add(script, "-find /shell -name *.txt -print");
    add(script, "-df");
    add(script, "-df -h /shell");
    // Status and tests.
    add(script, "-stat /shell/in/big.bin");
    add(script, "-stat %b|%F|%g|%n|%o|%r|%u|%A|%a /shell/in/big.bin /shell/in/deep /shell/in/zero");
    add(script, "-test -e /shell/in/big.bin");
    add(script, "-test -d /shell/in/big.bin");
    add(script, "-test -f /shell/in/big.bin");
    add(script, "-test -d /shell/in");
    add(script, "-test -s /shell/in/zero");
    add(script, "-test -z /shell/in/zero");
    add(script, "-test -e /shell/missing");
    if (checkAccessServed) {
      add(script, "-test -w /shell/in/big.bin");
      add(script, "-test -r /shell/in/big.bin");
    }
    // Checksums: the same bytes, block size and bytes per checksum give the same composite checksum.
    add(script, "-checksum /shell/in/big.bin /shell/in/one.txt /shell/in/empty");
    // Copies and moves.
    add(script, "-cp /shell/in/one.txt /shell/other/one-copy.txt");
    add(script, "-cp /shell/in/deep /shell/other");
    add(script, "-cp -f /shell/in/two.txt /shell/other/one-copy.txt");
    add(script, "-mv /shell/in/two.txt /shell/other/two-moved.txt");
    add(script, "-mv /shell/other/deep /shell/in/deep/nested");
    add(script, "-ls -R /shell");
    // Attributes.
    add(script, "-chmod -R 750 /shell/other");
    add(script, "-chmod u+x,g-r /shell/in/one.txt");
    add(script, "-chmod 1777 /shell/in/deep");
    add(script, "-chown alice:staff /shell/in/one.txt");
    add(script, "-chown -R bob /shell/other");
    add(script, "-chgrp -R staff /shell/in/deep");
    add(script, "-setrep 1 /shell/in/big.bin");
    add(script, "-setrep -R 3 /shell/other");
    add(script, "-ls -R /shell");
    add(script, "-stat %r|%u|%g|%A /shell/in/big.bin /shell/in/one.txt /shell/other/two-moved.txt");
    if (quotaServed) {
      // Quotas are set through the API (dfsadmin is not FsShell); their effects are what users see in FsShell.
      add(script, "-mkdir /shell/quota");
      add(script, "@setQuota /shell/quota 4 8388608");
      add(script, "-count -q /shell/quota");
      add(script, "-count -q -h -v /shell/quota");
      add(script, "-count -u /shell/quota");
      add(script, "-put {in}/one.txt {in}/two.txt /shell/quota");
      add(script, "-put {in}/empty /shell/quota");
      add(script, "-touchz /shell/quota/over");
      add(script, "-mkdir /shell/quota/sub");
      add(script, "-count -q /shell/quota");
      add(script, "@setQuota /shell/quota 100 1048576");
      add(script, "-put {in}/more.txt /shell/quota/small.txt");
      add(script, "-mv /shell/in/big.bin /shell/quota");
      add(script, "-cp /shell/in/one.txt /shell/quota/copy.txt");
      add(script, "-count -q /shell/quota");
      add(script, "-du -s /shell/quota");
      add(script, "@setQuota /shell/quota -1 -1");
      add(script, "-count -q /shell/quota");
      add(script, "-put {in}/more.txt /shell/quota/small.txt");
      add(script, "@setQuota /shell/quota/small.txt 3 -1");
      add(script, "@setQuota /shell/missing 3 -1");
    }
    if (appendServed) {
      add(script, "-appendToFile {in}/more.txt /shell/in/one.txt");
      // (Not to a file of replication 3: with two datanodes HDFS's append pipeline cannot be rebuilt.)
      add(script, "-appendToFile {in}/more.txt {in}/two.txt /shell/in/zero");
      add(script, "-appendToFile {in}/more.txt /shell/in/new-by-append.txt");
      add(script, "-cat /shell/in/one.txt /shell/in/zero /shell/in/new-by-append.txt");
      add(script, "-checksum /shell/in/one.txt");
      add(script, "-appendToFile {in}/more.txt /shell/in");
    }
    // What users get wrong.
    add(script, "-cat /shell/missing");
    add(script, "-cat /shell/in");
    add(script, "-ls /shell/missing");
    add(script, "-get /shell/missing {out}/missing");
    add(script, "-get /shell/in/one.txt {out}/one.txt");
    add(script, "-put {in}/one.txt /shell/in/one.txt");
    add(script, "-put {in}/missing /shell/in/");
    add(script, "-mkdir /shell/in/big.bin");
    add(script, "-mkdir /shell/in/big.bin/sub");
    add(script, "-mkdir /shell/in");
    add(script, "-mkdir /shell/no/parent");
    add(script, "-touchz /shell/in/one.txt");
    add(script, "-rm /shell/in");
    add(script, "-rm /shell/missing");
    add(script, "-rm -r /shell/missing");
    add(script, "-rm -f /shell/missing");
    add(script, "-rmdir /shell/in");
    add(script, "-mv /shell/missing /shell/other");
    add(script, "-mv /shell/in /shell/in/deep");
    add(script, "-cp /shell/in/one.txt /shell/other/two-moved.txt");
    add(script, "-chmod 700 /shell/missing");
    add(script, "-chown alice /shell/missing");
    add(script, "-setrep 2 /shell/missing");
    add(script, "-stat /shell/missing");
    add(script, "-du /shell/missing");
    add(script, "-count /shell/missing");
    add(script, "-checksum /shell/missing");
    add(script, "-checksum /shell/in");
    add(script, "-ls /shell/in/big.bin/sub");
    // Cleaning up.
    add(script, "-rm /shell/in/empty");
    add(script, "-rm -r /shell/other");
    add(script, "-rm -r -skipTrash /shell/in/deep");
    add(script, "-rmdir --ignore-fail-on-non-empty /shell/in");
    add(script, "-ls -R /shell");
    add(script, "-rm -r /shell");
    add(script, "-ls /");
    return script;
  }

  private static void add(List<String[]> script, String command) {
    script.add(command.split(" "));
  }

  @Test
  void sameOutputAsApacheHdfs() throws Exception {
    Path in = prepareInput();
    List<String> differences = new ArrayList<>();
    int commands = 0;
    int failedOnHdfs = 0;
    for (String[] command : script()) {
      Result expected = normalize(hdfsTarget, in, shell(hdfsTarget, in, command));
      Result actual = normalize(canopyTarget, in, shell(canopyTarget, in, command));
      commands++;
      failedOnHdfs += expected.exit() != 0 ? 1 : 0;
      // The transcript (HDFS's side, normalized) in the test's output, to read what was compared.
      System.out.println("hadoop fs " + String.join(" ", command) + "\n  " + expected);
      if (!expected.equals(actual)) {
        differences.add("hadoop fs " + String.join(" ", command) + "\n  HDFS:   " + expected + "\n  Canopy: "
            + actual);
      }
    }
    differences.addAll(localDifferences());
    assertTrue(differences.isEmpty(), differences.size() + " of " + commands + " commands differ from HDFS:\n"
        + String.join("\n", differences));
    // Only worth something if the session did things: the error cases failed, the downloads hold the uploads.
    assertTrue(failedOnHdfs >= 25, failedOnHdfs + " commands failed on HDFS");
    assertEquals(Files.size(in.resolve("big.bin")), Files.size(canopyTarget.local().resolve("big.bin")));
  }

  /** The local files -get and -getmerge wrote on each side: same names, same bytes. */
  private static List<String> localDifferences() throws IOException {
    List<String> differences = new ArrayList<>();
    List<Path> expected = localFiles(hdfsTarget.local());
    List<Path> actual = localFiles(canopyTarget.local());
    if (!expected.equals(actual)) {
      differences.add("local files written: HDFS " + expected + ", Canopy " + actual);
      return differences;
    }
    for (Path file : expected) {
      byte[] hdfsBytes = Files.readAllBytes(hdfsTarget.local().resolve(file));
      byte[] canopyBytes = Files.readAllBytes(canopyTarget.local().resolve(file));
      if (!java.util.Arrays.equals(hdfsBytes, canopyBytes)) {
        differences.add("local file " + file + ": " + hdfsBytes.length + " bytes from HDFS, " + canopyBytes.length
            + " bytes from Canopy, contents differ");
      }
    }
    return differences;
  }

  private static List<Path> localFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).map(root::relativize).sorted().toList();
    }
  }

  /**
   * Runs one FsShell command in this JVM, capturing what it prints (it prints through System.out and err); a step
   * {@code @setQuota PATH NS SS} calls DistributedFileSystem.setQuota instead (exit 1 and the exception's class and
   * first line on failure).
   */
  private static Result shell(Target target, Path in, String[] command) throws Exception {
    if (command[0].equals("@setQuota")) {
      DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(URI.create(target.uri()), target.conf());
      try {
        fs.setQuota(new org.apache.hadoop.fs.Path(command[1]), Long.parseLong(command[2]),
            Long.parseLong(command[3]));
        return new Result(0, "", "");
      } catch (org.apache.hadoop.ipc.RemoteException e) {
        return new Result(1, "", e.getClassName() + ": " + e.getMessage().lines().findFirst().orElse(""));
      } catch (IOException e) {
        return new Result(1, "", e.getClass().getName() + ": " + e.getMessage().lines().findFirst().orElse(""));
      }
    }
    String[] args = new String[command.length];
    for (int i = 0; i < command.length; i++) {
      args[i] = command[i].replace("{in}", in.toString()).replace("{out}", target.local().toString());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    int exit;
    try (PrintStream capturedOut = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream capturedErr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(capturedOut);
      System.setErr(capturedErr);
      exit = ToolRunner.run(new Configuration(target.conf()), new FsShell(), args);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static final Pattern DATE_TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(:\\d{2})?");
  private static final Pattern DF_LINE = Pattern.compile("(?m)^(\\S+)((\\s+[\\d.]+( [KMGTPE])?)+\\s+\\d+%)$");

  /**
   * Removes what must differ between two clusters: the namenode's {@code host:port} (each cluster has its own),
   * this side's local directories, dates and times ({@code -ls}, {@code -stat}: the clusters ran the commands at
   * different instants) and the figures of {@code -df} (capacity, used and free space are the datanodes' disks and
   * the bytes each cluster's datanodes keep, not namespace semantics); {@code -df}'s columns are re-spaced, since
   * their widths follow those figures.
   */
  static Result normalize(Target target, Path in, Result result) {
    return new Result(result.exit(), normalize(target, in, result.out()), normalize(target, in, result.err()));
  }

  private static String normalize(Target target, Path in, String text) {
    String authority = URI.create(target.uri()).getAuthority();
    String normalized = text.replace(target.local().toString(), "{out}").replace(in.toString(), "{in}")
        .replace(authority, "{namenode}");
    normalized = DATE_TIME.matcher(normalized).replaceAll("{date}");
    Matcher df = DF_LINE.matcher(normalized);
    StringBuilder rewritten = new StringBuilder();
    while (df.find()) {
      df.appendReplacement(rewritten, Matcher.quoteReplacement(df.group(1) + " {size} {used} {available} {use%}"));
    }
    df.appendTail(rewritten);
    normalized = rewritten.toString();
    if (normalized.startsWith("Filesystem")) {
      normalized = normalized.replaceFirst("^Filesystem\\s+Size\\s+Used\\s+Available\\s+Use%",
          "Filesystem Size Used Available Use%");
    }
    return normalized;
  }

  private static String indent(String text) {
    return text.isEmpty() ? "(empty)" : text.strip().replace("\n", "\n            ");
  }
}

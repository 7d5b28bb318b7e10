package io.canopy.namenode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultControlTest {
  @TempDir
  Path dir;

  private FaultControl control(Path file, int port) {
    Configuration conf = new Configuration(false);
    conf.set(FaultControl.FILE_KEY, file.toString());
    return FaultControl.from(conf, port);
  }

  /** A store whose read-write transactions commit without doing anything: what the injector wraps. */
  private static io.canopy.metadata.MetadataStore quietStore() {
    java.lang.reflect.InvocationHandler transaction = (proxy, method, args) -> switch (method.getName()) {
      case "readOnly" -> false;
      case "close", "commit", "rollback" -> null;
      default -> throw new UnsupportedOperationException(method.getName());
    };
    io.canopy.metadata.dal.Transaction tx = (io.canopy.metadata.dal.Transaction) java.lang.reflect.Proxy
        .newProxyInstance(FaultControlTest.class.getClassLoader(),
            new Class<?>[] {io.canopy.metadata.dal.Transaction.class}, transaction);
    return (io.canopy.metadata.MetadataStore) java.lang.reflect.Proxy.newProxyInstance(
        FaultControlTest.class.getClassLoader(), new Class<?>[] {io.canopy.metadata.MetadataStore.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "begin" -> tx;
          case "describe" -> "quiet";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void theFileTurnsTheStoresFaultsOnAndOff() throws Exception {
    Path file = dir.resolve("faults");
    FaultControl control = control(file, 8020);
    io.canopy.metadata.MetadataStore store = control.wrap(quietStore());
    store.begin().commit(); // no file: no fault
    Files.writeString(file, "dal.fault.probability=1\n");
    control.poll();
    io.canopy.metadata.TransientStoreException fault = org.junit.jupiter.api.Assertions.assertThrows(
        io.canopy.metadata.TransientStoreException.class, () -> store.begin().commit());
    assertTrue(fault.getMessage().startsWith("injected: "), fault.getMessage());
    Files.writeString(file, "dal.fault.probability=0\n");
    control.poll();
    store.begin().commit();
  }

  @Test
  void offUnlessAFileIsNamed() {
    assertNull(FaultControl.from(new Configuration(false), 8020));
  }

  @Test
  void aMissingFileMeansNoFault() {
    FaultControl control = control(dir.resolve("none"), 8020);
    assertEquals("dal.fault.probability=0.0, clock.offset.ms=0", control.state());
    long before = System.currentTimeMillis();
    long clock = control.wallClockMs();
    assertTrue(clock >= before && clock <= System.currentTimeMillis());
  }

  @Test
  void theNamenodesPortKeysWinOverThePlainOnes() throws Exception {
    Path file = dir.resolve("faults");
    Files.writeString(file, "dal.fault.probability=0.25\nclock.offset.ms=-1000\n8021.clock.offset.ms=60000\n");
    FaultControl first = control(file, 8020);
    FaultControl second = control(file, 8021);
    assertEquals("dal.fault.probability=0.25, clock.offset.ms=-1000", first.state());
    assertEquals("dal.fault.probability=0.25, clock.offset.ms=60000", second.state());
    long now = System.currentTimeMillis();
    assertTrue(second.wallClockMs() - now >= 59_000, "the offset moves the namenode's clock");
    assertTrue(first.wallClockMs() - now <= -999 + 50);
  }

  @Test
  void changesAreReadAndInvalidOnesLeaveTheFaultsAsTheyWere() throws Exception {
    Path file = dir.resolve("faults");
    Files.writeString(file, "dal.fault.probability=0.5\n");
    FaultControl control = control(file, 8020);
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state());
    Files.writeString(file, "dal.fault.probability=2\n");
    control.poll();
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state(), "out of range: unchanged");
    Files.writeString(file, "clock.offset.ms=" + (FaultControl.MAX_OFFSET_MS + 1) + "\n");
    control.poll();
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state(), "beyond a day: unchanged");
    Files.writeString(file, "clock.offset.ms=abc\n");
    control.poll();
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state());
    Files.delete(file);
    control.poll();
    assertEquals("dal.fault.probability=0.0, clock.offset.ms=0", control.state(), "no file: healed");
  }
}

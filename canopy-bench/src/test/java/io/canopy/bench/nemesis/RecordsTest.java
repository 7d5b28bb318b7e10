package io.canopy.bench.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordsTest {
  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void recordsReadBackInOrder() {
    byte[] file = concat(Records.encode(7, 0), Records.encode(8, 700), Records.encode(9, 300_000));
    assertEquals(new Records.Decoded(List.of(7L, 8L, 9L), 0), Records.decode(file));
    assertEquals(new Records.Decoded(List.of(), 0), Records.decode(new byte[0]));
  }

  @Test
  void anInterruptedWriteIsGarbageAndTheRecordsAfterItStillRead() {
    byte[] torn = Arrays.copyOf(Records.encode(2, 500), 100); // an append cut short
    byte[] file = concat(Records.encode(1, 10), torn, Records.encode(3, 10));
    assertEquals(new Records.Decoded(List.of(1L, 3L), 100), Records.decode(file));
  }

  @Test
  void aChangedByteMakesItsRecordGarbage() {
    byte[] record = Records.encode(5, 64);
    record[40] ^= 1; // in the payload
    Records.Decoded decoded = Records.decode(concat(Records.encode(4, 8), record));
    assertEquals(List.of(4L), decoded.tokens());
    assertEquals(record.length, decoded.garbageBytes());
  }
}

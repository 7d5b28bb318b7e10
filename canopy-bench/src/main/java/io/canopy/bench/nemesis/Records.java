package io.canopy.bench.nemesis;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * What the nemesis workload writes: each create or append writes one self-checking record (a magic number, the write's
 * token, a payload length, payload bytes derived from the token, a CRC of it all), so a read tells exactly which writes
 * a file holds and whether their bytes are intact. Bytes that are not a whole valid record (what an append that never
 * completed may leave, as HDFS allows) are counted as garbage and skipped.
 */
public final class Records {
  static final int MAGIC = 0x4e454d53;
  private static final int HEADER = 4 + 8 + 4;
  private static final int TRAILER = 4;

  private Records() {
  }

  /** A file's reading: the tokens of its valid records in order, and the bytes that were not part of one. */
  public record Decoded(List<Long> tokens, long garbageBytes) {
    public Decoded {
      tokens = List.copyOf(tokens);
    }
  }

  /** The record of {@code token} with {@code payloadBytes} bytes of payload. */
  public static byte[] encode(long token, int payloadBytes) {
    if (payloadBytes < 0) {
      throw new IllegalArgumentException("payload bytes must not be negative, got " + payloadBytes);
    }
    ByteBuffer record = ByteBuffer.allocate(HEADER + payloadBytes + TRAILER);
    record.putInt(MAGIC).putLong(token).putInt(payloadBytes);
    record.put(payload(token, payloadBytes));
    CRC32 crc = new CRC32();
    crc.update(record.array(), 4, 8 + 4 + payloadBytes);
    record.putInt((int) crc.getValue());
    return record.array();
  }

  private static byte[] payload(long token, int length) {
    byte[] bytes = new byte[length];
    new Random(token).nextBytes(bytes);
    return bytes;
  }

  /** Reads {@code data}: every valid record in order; anything else is garbage. */
  public static Decoded decode(byte[] data) {
    List<Long> tokens = new ArrayList<>();
    long garbage = 0;
    int at = 0;
    while (at < data.length) {
      int length = recordAt(data, at);
      if (length > 0) {
        tokens.add(ByteBuffer.wrap(data, at + 4, 8).getLong());
        at += length;
      } else {
        garbage++;
        at++;
      }
    }
    return new Decoded(tokens, garbage);
  }

  /** The length of the valid record starting at {@code at}, or 0 when none starts there. */
  private static int recordAt(byte[] data, int at) {
    if (data.length - at < HEADER + TRAILER) {
      return 0;
    }
    ByteBuffer header = ByteBuffer.wrap(data, at, HEADER);
    if (header.getInt() != MAGIC) {
      return 0;
    }
    long token = header.getLong();
    int payloadBytes = header.getInt();
    if (payloadBytes < 0 || payloadBytes > data.length - at - HEADER - TRAILER) {
      return 0;
    }
    CRC32 crc = new CRC32();
    crc.update(data, at + 4, 8 + 4 + payloadBytes);
    int stored = ByteBuffer.wrap(data, at + HEADER + payloadBytes, TRAILER).getInt();
    if (stored != (int) crc.getValue()) {
      return 0;
    }
    byte[] expected = payload(token, payloadBytes);
    for (int i = 0; i < payloadBytes; i++) {
      if (data[at + HEADER + i] != expected[i]) {
        return 0;
      }
    }
    return HEADER + payloadBytes + TRAILER;
  }
}

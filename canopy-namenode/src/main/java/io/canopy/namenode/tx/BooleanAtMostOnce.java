package io.canopy.namenode.tx;

import java.io.IOException;

/** An {@link AtMostOnce} operation answering true or false (delete, rename), recorded as one byte. */
public interface BooleanAtMostOnce extends AtMostOnce<Boolean> {
  @Override
  default byte[] encodeResult(Boolean result) {
    return ResultCodecs.encodeBoolean(result);
  }

  @Override
  default Boolean decodeResult(byte[] encoded) throws IOException {
    return ResultCodecs.decodeBoolean(encoded);
  }
}

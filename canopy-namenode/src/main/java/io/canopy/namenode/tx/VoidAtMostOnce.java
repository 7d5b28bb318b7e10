package io.canopy.namenode.tx;

/** An {@link AtMostOnce} operation with no answer (rename2, concat, setXAttr, ...): recorded as an empty result. */
public interface VoidAtMostOnce extends AtMostOnce<Void> {
  @Override
  default byte[] encodeResult(Void result) {
    return ResultCodecs.encodeVoid();
  }

  @Override
  default Void decodeResult(byte[] encoded) {
    return null;
  }
}

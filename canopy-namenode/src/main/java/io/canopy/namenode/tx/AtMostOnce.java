package io.canopy.namenode.tx;

import java.io.IOException;

/**
 * A non-idempotent operation (create, delete, rename, ...) whose committed result is recorded in the database's
 * retry cache, in its own transaction, so that a retry of the same client call, on any namenode, and a re-run
 * after a commit whose reply was lost, return the first result instead of running again (HDFS's retry cache,
 * made shared).
 *
 * @param <T> result returned to the caller
 */
public interface AtMostOnce<T> extends Operation<T> {
  byte[] encodeResult(T result);

  T decodeResult(byte[] encoded) throws IOException;
}

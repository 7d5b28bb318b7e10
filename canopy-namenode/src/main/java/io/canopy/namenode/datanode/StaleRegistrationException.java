package io.canopy.namenode.datanode;

import java.io.IOException;

/**
 * A report from a datanode this namespace does not count as registered: unknown, declared dead and not registered
 * again, or naming a storage no heartbeat recorded yet. HDFS answers these with a plain IOException ("... from
 * unregistered or dead node"), not {@code UnregisteredNodeException}: on that one a stock DataNode stops talking to
 * the namenode for good, while on this one it retries, and its next heartbeat (answered "register") brings it back.
 */
public final class StaleRegistrationException extends IOException {
  public StaleRegistrationException(String message) {
    super(message);
  }
}

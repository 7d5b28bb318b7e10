package io.canopy.metadata.ignite;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.StoreUnavailableException;
import java.util.List;
import java.util.function.Function;
import org.apache.ignite.client.IgniteClient;

/**
 * A namenode's thin client of the Ignite cluster, connected to one database node at a time, its home (design 020, "A
 * node kill"): the first of the configured addresses, then, once the home's connection is gone, the next that answers.
 *
 * <p>One node, not all: a thin client connected to several nodes sends a transaction's requests for a partition
 * straight to that partition's primary (3.1's direct mapping), where Ignite 3.1 records the transaction with a table
 * partition as its commit partition; with zone-based replication (3.1's default) no primary ever serves such a
 * partition, so once the node coordinating the transaction dies, every reader of its rows waits for that primary and
 * fails, for as long as the cluster runs. Measured: killing one of three nodes under the Spotify mix left a directory
 * unlistable for minutes with all addresses given, and cost no operation with one. Connected to one node, the client
 * sends every request of a transaction to its coordinator, which enlists the partitions itself.
 */
final class HomeNodeClient implements AutoCloseable {
  private final List<String> addresses;
  private final Function<String, IgniteClient> connector;
  private IgniteClient current;
  private int index;
  private boolean closed;

  /**
   * Connects to the first of {@code addresses} that answers, in order. {@code connector} builds a client of one
   * address (it throws a RuntimeException when the node does not answer).
   */
  HomeNodeClient(List<String> addresses, Function<String, IgniteClient> connector) throws StoreException {
    if (addresses.isEmpty()) {
      throw new IllegalArgumentException("no Ignite address to connect to");
    }
    this.addresses = List.copyOf(addresses);
    this.connector = connector;
    this.index = addresses.size() - 1; // the first connection tries the first address
    connectNext(null);
  }

  /** The client, connected to a live node: the current one, or, when its connection is gone, the next that answers. */
  synchronized IgniteClient get() throws StoreException {
    if (closed) {
      throw new StoreUnavailableException("the Ignite client is closed", null, false);
    }
    if (current.connections().isEmpty()) {
      connectNext(current);
    }
    return current;
  }

  /** The address of the node the client is connected to now. */
  synchronized String home() {
    return addresses.get(index);
  }

  /** Closes {@code broken} (when given) and connects to the addresses after it, each tried once, in turn. */
  private void connectNext(IgniteClient broken) throws StoreException {
    if (broken != null) {
      closeQuietly(broken);
    }
    RuntimeException last = null;
    for (int tried = 0; tried < addresses.size(); tried++) {
      index = (index + 1) % addresses.size();
      try {
        current = connector.apply(addresses.get(index));
        return;
      } catch (RuntimeException e) {
        last = e;
      }
    }
    StoreException failure = IgniteErrors.translate("connecting to a node of the Ignite cluster at " + addresses,
        last, false);
    throw failure instanceof StoreUnavailableException ? failure
        : new StoreUnavailableException(failure.getMessage(), last, false);
  }

  private static void closeQuietly(IgniteClient client) {
    try {
      client.close();
    } catch (Exception e) {
      // a client whose connection is already gone
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (current != null) {
      closeQuietly(current);
    }
  }
}

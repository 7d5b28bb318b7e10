package io.canopy.client;

import java.io.IOException;
import java.util.List;

/** Asks one namenode for the live namenode list (an RPC in production, a fake in tests). */
interface NamenodeListSource {
  /**
   * The live namenodes the namenode at {@code address} (host:port) knows of.
   *
   * @throws IOException when it cannot be reached or its answer is unusable; the message names the namenode
   */
  List<NamenodeList.Entry> fetch(String address) throws IOException;
}

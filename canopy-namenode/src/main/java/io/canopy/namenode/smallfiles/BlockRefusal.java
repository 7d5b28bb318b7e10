package io.canopy.namenode.smallfiles;

/** Why a requested block is not served; the message names the block and is sent to the client as it is. */
final class BlockRefusal extends Exception {
  private static final long serialVersionUID = 1L;

  BlockRefusal(String message) {
    super(message, null, false, false);
  }
}

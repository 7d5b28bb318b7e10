package io.canopy.namenode.blocks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.BlockKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;

class BlockTokensTest {
  private static final long MINUTE = 60_000;
  private static final long INTERVAL = 10 * MINUTE;
  private static final long LIFETIME = 5 * MINUTE;

  /** The keys as a store keeps them. */
  private static final class Keys implements BlockKeys {
    final List<Key> keys = new ArrayList<>();

    @Override
    public synchronized List<Key> all() {
      return List.copyOf(keys);
    }

    @Override
    public synchronized boolean add(Key key) {
      if (keys.stream().anyMatch(k -> k.id() == key.id())) {
        return false;
      }
      return keys.add(key);
    }

    @Override
    public synchronized int deleteExpired(long nowMs) {
      int before = keys.size();
      keys.removeIf(key -> key.expiryMs() < nowMs);
      return before - keys.size();
    }
  }

  /** Starts at the wall clock: Hadoop's secret manager drops keys by the wall clock (its timer is not ours). */
  private final AtomicLong clock = new AtomicLong(System.currentTimeMillis());

  private BlockTokens start(Keys keys, long seed) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_KEY, INTERVAL / MINUTE);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_KEY, LIFETIME / MINUTE);
    return BlockTokens.start(conf, keys, "BP-1", clock::get, new Random(seed));
  }

  private static LocatedBlock located(long blockId) {
    return new LocatedBlock(new ExtendedBlock("BP-1", blockId, 10, 1001), new DatanodeInfo[0], new String[] {"DS-1"},
        new StorageType[] {StorageType.DISK});
  }

  @Test
  void aFreshClusterGetsACurrentAndANextKeyAndEveryNamenodeSignsWithTheSame() throws Exception {
    Keys keys = new Keys();
    BlockTokens first = start(keys, 1);
    BlockTokens second = start(keys, 2);
    assertEquals(2, keys.all().size(), "one current key and one next key, made once");
    ExportedBlockKeys exported = first.exported();
    assertTrue(exported.isBlockTokenEnabled());
    assertEquals(INTERVAL, exported.getKeyUpdateInterval());
    assertEquals(LIFETIME, exported.getTokenLifetime());
    assertEquals(2, exported.getAllKeys().length);
    assertEquals(exported.getCurrentKey().getKeyId(), second.exported().getCurrentKey().getKeyId());

    LocatedBlock block = located(7);
    first.sign(block, BlockTokenIdentifier.AccessMode.READ, "alice");
    second.checkRead(block.getBlockToken(), block.getBlock()); // issued by one, honoured by the other
    assertThrows(SecretManager.InvalidToken.class, () -> second.checkRead(block.getBlockToken(), located(8)
        .getBlock()), "another block");
    Token<BlockTokenIdentifier> forged = new Token<>(block.getBlockToken().getIdentifier(), new byte[20],
        block.getBlockToken().getKind(), block.getBlockToken().getService());
    assertThrows(SecretManager.InvalidToken.class, () -> second.checkRead(forged, block.getBlock()));
  }

  @Test
  void theNextKeySignsAfterAnIntervalAndExpiredKeysGo() throws Exception {
    Keys keys = new Keys();
    BlockTokens tokens = start(keys, 1);
    int firstCurrent = tokens.exported().getCurrentKey().getKeyId();
    LocatedBlock early = located(7);
    tokens.sign(early, BlockTokenIdentifier.AccessMode.READ, "alice");
    long version = tokens.version();

    clock.addAndGet(INTERVAL - 1);
    tokens.refresh();
    assertEquals(firstCurrent, tokens.exported().getCurrentKey().getKeyId(), "still within the interval");
    assertEquals(version, tokens.version(), "nothing new for the datanodes");

    clock.addAndGet(2);
    tokens.refresh();
    int secondCurrent = tokens.exported().getCurrentKey().getKeyId();
    assertNotEquals(firstCurrent, secondCurrent, "the next key signs now");
    assertEquals(3, keys.all().size(), "and a new next key waits");
    assertTrue(tokens.version() > version, "the datanodes get the new keys");
    tokens.checkRead(early.getBlockToken(), early.getBlock()); // a token of the retired key lives its lifetime

    clock.addAndGet(2 * INTERVAL + LIFETIME + 1);
    tokens.refresh();
    assertFalse(keys.all().stream().anyMatch(key -> key.id() == firstCurrent), "the first key expired and went");
    assertFalse(java.util.Arrays.stream(tokens.exported().getAllKeys()).anyMatch(key -> key.getKeyId() == firstCurrent),
        "and is no longer given to datanodes");
  }

  @Test
  void offSignsNothingAndChecksNothing() throws Exception {
    BlockTokens off = BlockTokens.disabled();
    assertFalse(off.enabled());
    assertEquals(ExportedBlockKeys.DUMMY_KEYS, off.exported());
    LocatedBlock block = located(7);
    off.sign(block, BlockTokenIdentifier.AccessMode.READ, "alice");
    assertEquals(0, block.getBlockToken().getIdentifier().length);
    off.checkRead(new Token<>(), block.getBlock());
  }
}

package io.canopy.namenode.smallfiles;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a requested block in the database and checks it is one the endpoint may serve, with the refusals a datanode
 * gives for a replica it lacks or holds with an older generation stamp.
 */
final class BlockLookup {
  private static final Logger LOG = LoggerFactory.getLogger(BlockLookup.class);

  private final SmallBlockSource source;

  BlockLookup(SmallBlockSource source) {
    this.source = source;
  }

  SmallBlock find(ExtendedBlock asked) throws BlockRefusal {
    if (asked.getBlockId() >= 0) {
      // Positive ids are datanode blocks: a client that asks here has a location list that is not the namenode's.
      throw new BlockRefusal("Block " + asked + " is a datanode block: Canopy's small-file endpoint serves only "
          + "blocks of files stored in the database (negative ids); read it from the datanodes the namenode names");
    }
    Optional<SmallBlock> found;
    try {
      found = source.read(asked.getBlockId(), asked.getGenerationStamp());
    } catch (IOException e) {
      LOG.debug("reading {} from the database failed", asked, e);
      throw new BlockRefusal("Block " + asked + " could not be read from the database: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("reading {} from the database failed", asked, e);
      throw new BlockRefusal("Block " + asked + " could not be read from the database: " + e);
    }
    if (found.isEmpty()) {
      throw new BlockRefusal("Block " + asked + " is not in the database: its file was deleted or moved to "
          + "datanodes; ask the namenode for the file's block locations again");
    }
    long held = found.get().generationStamp();
    if (held < asked.getGenerationStamp()) {
      // As a datanode refuses a replica older than the block the client asks for.
      throw new BlockRefusal("Block " + asked + ": the database holds generation stamp " + held
          + ", older than the one asked; ask the namenode for the file's block locations again");
    }
    return found.get();
  }
}

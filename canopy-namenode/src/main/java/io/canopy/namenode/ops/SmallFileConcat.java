package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;

/**
 * concat of files whose bytes are in the database (design 016). A database-resident block belongs to its file (its id
 * is the file's, {@link SmallBlocks}), so it cannot move to the target as datanode blocks do: the sources' bytes are
 * appended to the target's in the database instead, which is possible while the target holds nothing on datanodes and
 * the result stays within {@code canopy.smallfiles.max-bytes}. Beyond that, the concat is refused with the figures.
 */
final class SmallFileConcat {
  private SmallFileConcat() {
  }

  /** Whether any of the sources holds bytes in the database: the concat is then this class's to run. */
  static boolean needed(TransactionContext context, List<Inode> sources) throws IOException {
    for (Inode source : sources) {
      if (SmallBlocks.of(context.readFileData(source, LockMode.EXCLUSIVE).blocks()) != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Appends the sources' bytes to the target's in the database and removes the sources' blocks and bytes (the caller
   * removes their inodes); returns the bytes added. Refuses, changing nothing, what cannot stay in the database.
   */
  static long run(TransactionContext context, NamespaceServices services, FsPath target, Inode file,
      List<Inode> sources) throws IOException {
    List<Block> targetBlocks = context.readFileData(file, LockMode.EXCLUSIVE).blocks();
    FileTables tables = context.fileData(file, LockMode.EXCLUSIVE);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    if (!targetBlocks.isEmpty() && !SmallBlocks.whollySmall(targetBlocks)) {
      throw refusal(target, "the target holds " + targetBlocks.size() + " block(s) on datanodes", services);
    }
    if (!targetBlocks.isEmpty()) {
      bytes.write(SmallBlocks.storedBytes(tables, file, target));
    }
    long total = file.size();
    for (Inode source : sources) {
      List<Block> blocks = context.readFileData(source, LockMode.EXCLUSIVE).blocks();
      if (!SmallBlocks.whollySmall(blocks)) {
        throw refusal(target, "a source holds its bytes on datanodes while another holds them in the database",
            services);
      }
      total += source.size();
    }
    // the threshold bounds the result, not the block size: HDFS's concat keeps every source's block, and a
    // database-resident block cannot move, so a concatenated small file is one block that may exceed its block size
    if (total > services.limits().smallFileMaxBytes()) {
      throw refusal(target, "the result would be " + total + " bytes", services);
    }
    for (Inode source : sources) {
      FileTables sourceTables = context.fileData(source, LockMode.EXCLUSIVE);
      bytes.write(SmallBlocks.storedBytes(sourceTables, source, "a source of " + target));
      sourceTables.blocks().delete(context.readFileData(source, LockMode.EXCLUSIVE).blocks().get(0).key());
      sourceTables.smallFiles().delete(source.id());
    }
    SmallBlocks.store(tables, file, targetBlocks.isEmpty() ? null : targetBlocks.get(0), bytes.toByteArray(),
        services.ids().nextGlobal(IdKind.GENERATION_STAMP)); // above every stamp handed out: a rewrite
    return total - file.size();
  }


  private static HadoopIllegalArgumentException refusal(FsPath target, String why, NamespaceServices services) {
    return new HadoopIllegalArgumentException("concat into " + target + ": some sources are small files stored in "
        + "the database, which are concatenated there only while the target has no blocks on datanodes and the "
        + "result stays within canopy.smallfiles.max-bytes (" + services.limits().smallFileMaxBytes() + " bytes); "
        + why + ". Copy the files instead, or concat files written through datanodes");
  }
}

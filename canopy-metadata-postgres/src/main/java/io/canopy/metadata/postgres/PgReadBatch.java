package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.metadata.entity.UcReplica;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/** A {@link ReadBatch} sent as one multi-statement pipeline. */
final class PgReadBatch implements ReadBatch {
  private final Jdbc jdbc;
  private final List<Jdbc.Part<?>> parts = new ArrayList<>();
  private boolean executed;
  private PgInodeTable.KeyReads keyReads;
  private LockMode keyReadsMode;

  PgReadBatch(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  private <R, T> Result<T> add(Jdbc.Part<R> part, Function<List<R>, T> shape) {
    if (executed) {
      throw new IllegalStateException("read batch already executed");
    }
    parts.add(part);
    return () -> {
      if (part.rows() == null) {
        throw new IllegalStateException("read batch not executed yet");
      }
      return shape.apply(part.rows());
    };
  }

  private static <R> Optional<R> first(List<R> rows) {
    return rows.stream().findFirst();
  }

  /**
   * The inode key reads the next key read joins: those of the last statement added, while it is one of the same lock
   * mode. Any other read ends the run, so reads keep their order relative to locks (the batch's contract).
   */
  private PgInodeTable.KeyReads openKeyReads(LockMode effective) {
    if (executed) {
      throw new IllegalStateException("read batch already executed");
    }
    if (keyReads == null || keyReadsMode != effective || parts.get(parts.size() - 1) != keyReads.part()) {
      keyReads = new PgInodeTable.KeyReads(effective);
      keyReadsMode = effective;
      parts.add(keyReads.part());
    }
    return keyReads;
  }

  @Override
  public Result<Optional<Inode>> inode(InodeKey key, LockMode lock) {
    LockMode effective = jdbc.effective(lock);
    if (effective != LockMode.NONE) {
      // One statement per locked row, never one for several: a read-committed statement reads with the snapshot
      // it started with, so a row looked up after waiting for another row's lock in the same statement would miss
      // what the lock holder committed (a mkdirs -p would not see the parent its competitor just created). Each
      // statement of the pipeline starts after the lock before it is granted, and sees what that holder committed.
      return add(PgInodeTable.getPart(key, effective), PgReadBatch::first);
    }
    PgInodeTable.KeyReads reads = openKeyReads(effective);
    reads.add(key);
    return () -> Optional.ofNullable(reads.rows().get(key));
  }

  @Override
  public Result<Map<InodeKey, Inode>> inodes(List<InodeKey> keys, LockMode lock) {
    if (keys.isEmpty()) {
      if (executed) {
        throw new IllegalStateException("read batch already executed");
      }
      // Nothing to send, but the handle follows the contract: no value before the batch executed.
      return () -> {
        if (!executed) {
          throw new IllegalStateException("read batch not executed yet");
        }
        return new LinkedHashMap<>();
      };
    }
    LockMode effective = jdbc.effective(lock);
    if (effective != LockMode.NONE) {
      List<Result<Optional<Inode>>> rows = new ArrayList<>(keys.size());
      for (InodeKey key : keys) {
        rows.add(inode(key, effective)); // one statement per locked row, see inode()
      }
      return () -> {
        Map<InodeKey, Inode> found = new LinkedHashMap<>();
        rows.forEach(row -> row.get().ifPresent(inode -> found.put(inode.key(), inode)));
        return found;
      };
    }
    PgInodeTable.KeyReads reads = openKeyReads(effective);
    keys.forEach(reads::add);
    return () -> {
      Map<InodeKey, Inode> all = reads.rows();
      Map<InodeKey, Inode> mine = new LinkedHashMap<>();
      for (InodeKey key : keys) {
        Inode row = all.get(key);
        if (row != null) {
          mine.put(key, row);
        }
      }
      return mine;
    };
  }

  @Override
  public Result<Optional<Inode>> inodeById(long inodeId, LockMode lock) {
    return add(PgInodeTable.byIdPart(inodeId, jdbc.effective(lock)), PgReadBatch::first);
  }

  @Override
  public Result<List<Inode>> children(long partitionId, long parentId, String startAfter, int limit,
      LockMode lock) {
    return add(PgInodeTable.childrenPart(partitionId, parentId, startAfter, limit, jdbc.effective(lock)), List::copyOf);
  }

  @Override
  public Result<List<Inode>> spreadChildren(long parentId, String startAfter, int limit, LockMode lock) {
    return add(PgInodeTable.spreadChildrenPart(parentId, startAfter, limit, jdbc.effective(lock)), List::copyOf);
  }

  @Override
  public Result<Long> countChildren(long partitionId, long parentId, String startAfter) {
    return add(PgInodeTable.countChildrenPart(partitionId, parentId, startAfter), rows -> rows.get(0));
  }

  @Override
  public Result<Long> countSpreadChildren(long parentId, String startAfter) {
    return add(PgInodeTable.countSpreadChildrenPart(parentId, startAfter), rows -> rows.get(0));
  }

  @Override
  public Result<List<Block>> blocksOfFile(long inodeId) {
    return add(PgBlockTable.ofFilePart(inodeId), List::copyOf);
  }

  @Override
  public Result<FileRows> fileRows(long inodeId, boolean withSmallData) {
    return add(PgFileRows.part(inodeId, withSmallData), rows -> PgFileRows.shape(inodeId, withSmallData, rows));
  }

  @Override
  public Result<FileRows> fileRows(long inodeId, Set<Long> blockIds) {
    if (blockIds.isEmpty()) {
      return () -> new FileRows(List.of(), List.of(), List.of());
    }
    return add(PgFileRows.partOfBlocks(inodeId, blockIds), rows -> PgFileRows.shape(inodeId, false, rows));
  }

  @Override
  public Result<Optional<byte[]>> smallFileData(long inodeId) {
    return add(PgSmallFileTable.getPart(inodeId), rows -> PgSmallFileTable.single(inodeId, rows));
  }

  @Override
  public Result<List<Replica>> replicasOfFile(long inodeId) {
    return add(PgReplicaTable.ofFilePart(inodeId), List::copyOf);
  }

  @Override
  public Result<List<UcReplica>> ucReplicasOfFile(long inodeId) {
    return add(PgUcReplicaTable.ofFilePart(inodeId), List::copyOf);
  }

  @Override
  public Result<Optional<Lease>> lease(String holder) {
    return add(PgLeaseTable.getPart(holder, LockMode.NONE), PgReadBatch::first);
  }

  @Override
  public Result<Optional<RetryEntry>> retryEntry(RetryKey key) {
    return add(PgRetryCacheTable.getPart(key), PgReadBatch::first);
  }

  @Override
  public Result<List<ExtendedAttribute>> xattrsOf(long inodeId) {
    return add(PgXAttrTable.ofInodePart(inodeId), List::copyOf);
  }

  @Override
  public Result<Optional<DirectoryQuota>> quota(long inodeId, LockMode lock) {
    return add(PgQuotaTable.getPart(inodeId, jdbc.effective(lock)), PgReadBatch::first);
  }

  @Override
  public Result<Boolean> anyQuota() {
    return add(PgQuotaTable.anyPart(), rows -> rows.get(0));
  }

  @Override
  public Result<OptionalLong> longVariable(String name) {
    return add(PgVariableTable.getPart(name, LockMode.NONE),
        rows -> rows.isEmpty() || rows.get(0) == null ? OptionalLong.empty() : OptionalLong.of(rows.get(0)));
  }

  @Override
  public boolean isEmpty() {
    return parts.isEmpty();
  }

  @Override
  public void execute() throws StoreException {
    if (executed) {
      throw new IllegalStateException("read batch already executed");
    }
    executed = true;
    jdbc.pipeline(parts, false);
  }
}

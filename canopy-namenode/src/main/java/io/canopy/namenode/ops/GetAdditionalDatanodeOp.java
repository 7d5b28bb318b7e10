package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/** getAdditionalDatanode: more datanodes for a writer's pipeline after one failed (the existing ones first). */
public final class GetAdditionalDatanodeOp implements Operation<LocatedBlock> {
  /** What the client asked for. */
  public record Request(FsPath path, long fileId, String holder, ExtendedBlock block, DatanodeInfo[] existing,
      String[] existingStorageIds, DatanodeInfo[] excluded, int additional, String clientAddress,
      NetworkLocation clientLocation) {
  }

  private final BlockServices blocks;
  private final int minReplication;
  private final Request request;
  private final PermissionChecker permissions;

  public GetAdditionalDatanodeOp(BlockServices blocks, int minReplication, Request request,
      PermissionChecker permissions) {
    this.blocks = blocks;
    this.minReplication = minReplication;
    this.request = request;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "getAdditionalDatanode";
  }

  @Override
  public LockRequest locks() {
    return OpenFile.lock(request.path, request.fileId, LockMode.SHARED);
  }

  @Override
  public LocatedBlock execute(TransactionContext context) throws IOException {
    Inode file = OpenFile.find(context, request.path, request.fileId, request.holder, permissions);
    Leases.check(file, request.holder, request.path.toString());
    Set<String> excluded = new HashSet<>();
    for (DatanodeInfo[] nodes : new DatanodeInfo[][] {request.existing, request.excluded}) {
      if (nodes != null) {
        for (DatanodeInfo node : nodes) {
          excluded.add(node.getDatanodeUuid());
        }
      }
    }
    List<String> holders = new ArrayList<>();
    for (DatanodeInfo node : request.existing) {
      holders.add(node.getDatanodeUuid()); // the pipeline's: the new ones complete its spread over zones and racks
    }
    List<BlockPlacement.Target> chosen = blocks.placement().choose(request.path.toString(), request.additional,
        Math.min(minReplication, request.additional), excluded, request.clientAddress,
        request.clientLocation, holders);
    List<DatanodeInfo> nodes = new ArrayList<>();
    List<String> storages = new ArrayList<>();
    List<StorageType> types = new ArrayList<>();
    for (int i = 0; i < request.existing.length; i++) {
      nodes.add(request.existing[i]);
      storages.add(request.existingStorageIds[i]);
      types.add(StorageType.DEFAULT);
    }
    for (BlockPlacement.Target target : chosen) {
      nodes.add(DatanodeRegistry.info(target.node().record()));
      storages.add(target.storage().storageId());
      types.add(DatanodeRegistry.storageType(target.storage()));
    }
    return new LocatedBlock(request.block, nodes.toArray(new DatanodeInfo[0]), storages.toArray(new String[0]),
        types.toArray(new StorageType[0]));
  }
}

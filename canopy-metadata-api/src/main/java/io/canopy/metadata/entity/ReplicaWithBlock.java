package io.canopy.metadata.entity;

/**
 * A recorded replica with what its block is now (stamp, length, state): what a full block report is reconciled
 * against, so a replica whose stamp or length no longer matches its block is looked at again. {@code blockState} is
 * null when the replica's block row is gone.
 */
public record ReplicaWithBlock(Replica replica, long blockGenerationStamp, long blockNumBytes, BlockState blockState) {
}

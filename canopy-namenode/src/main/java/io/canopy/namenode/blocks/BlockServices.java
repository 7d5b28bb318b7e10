package io.canopy.namenode.blocks;

/**
 * The block-side services operations use; {@code arrivals} wakes a complete() waiting for its last block's replica
 * reports.
 */
public record BlockServices(DatanodeRegistry registry, BlockPlacement placement, BlockLocator locator,
    ReplicaArrivals arrivals) {
}

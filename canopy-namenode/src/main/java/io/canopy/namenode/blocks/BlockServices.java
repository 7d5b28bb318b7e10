package io.canopy.namenode.blocks;

import io.canopy.namenode.topology.ClientLocations;
import io.canopy.namenode.topology.ReaderOrder;

/**
 * The block-side services operations use; {@code arrivals} wakes a complete() waiting for its last block's replica
 * reports; {@code readers} orders a located block's replicas for its reader and resolves network locations;
 * {@code clients} holds the locations Canopy clients declared.
 */
public record BlockServices(DatanodeRegistry registry, BlockPlacement placement, BlockLocator locator,
    ReplicaArrivals arrivals, ReaderOrder readers, ClientLocations clients) {
}

package io.canopy.namenode.blocks;

/** The block-side services operations use. */
public record BlockServices(DatanodeRegistry registry, BlockPlacement placement, BlockLocator locator) {
}

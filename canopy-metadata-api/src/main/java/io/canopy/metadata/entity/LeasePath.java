package io.canopy.metadata.entity;

/** A file held open for writing under a lease, partitioned by holder. */
public record LeasePath(String holder, long inodeId) {
}

package io.canopy.metadata.entity;

/** A client's write lease; {@code lastRenewedMs} is wall-clock time of the last renewal. */
public record Lease(String holder, long lastRenewedMs) {
}

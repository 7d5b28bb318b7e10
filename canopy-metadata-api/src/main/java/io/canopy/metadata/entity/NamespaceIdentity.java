package io.canopy.metadata.entity;

/** Identity handed to datanodes in {@code versionRequest}; fixed at format time. */
public record NamespaceIdentity(int namespaceId, String clusterId, String blockPoolId, long creationTime) {
}

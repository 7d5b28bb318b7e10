package io.canopy.metadata.entity;

import java.util.Objects;

/** Identifies one extended attribute: its inode (the partition key), namespace and name. */
public record ExtendedAttributeKey(long inodeId, XAttrNamespace namespace, String name) {
  public ExtendedAttributeKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }
}

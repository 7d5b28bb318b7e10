package io.canopy.metadata.entity;

import java.util.Arrays;
import java.util.Objects;

/**
 * One extended attribute of an inode. The value may be null: HDFS keeps an attribute set without a value apart
 * from one set to an empty value. Equality compares the value's bytes.
 */
public record ExtendedAttribute(long inodeId, XAttrNamespace namespace, String name, byte[] value) {
  public ExtendedAttribute {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  public ExtendedAttributeKey key() {
    return new ExtendedAttributeKey(inodeId, namespace, name);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ExtendedAttribute that && inodeId == that.inodeId && namespace == that.namespace
        && name.equals(that.name) && Arrays.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(inodeId, namespace, name, Arrays.hashCode(value));
  }

  @Override
  public String toString() {
    return "ExtendedAttribute[inode " + inodeId + ", " + namespace + "." + name + ", "
        + (value == null ? "no value" : value.length + " bytes") + "]";
  }
}

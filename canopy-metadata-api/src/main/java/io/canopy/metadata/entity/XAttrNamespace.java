package io.canopy.metadata.entity;

/**
 * The namespace of an extended attribute (HDFS's {@code XAttr.NameSpace}, in its order). Codes are stored; never
 * renumber.
 */
public enum XAttrNamespace {
  USER(0),
  TRUSTED(1),
  SECURITY(2),
  SYSTEM(3),
  RAW(4);

  private final int code;

  XAttrNamespace(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static XAttrNamespace fromCode(int code) {
    for (XAttrNamespace namespace : values()) {
      if (namespace.code == code) {
        return namespace;
      }
    }
    throw new IllegalArgumentException("unknown extended attribute namespace code " + code);
  }
}

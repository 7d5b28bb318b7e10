package io.canopy.namenode;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.PermissionSettings;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/** Creates an empty namespace: a fresh identity and a root directory owned by the formatting user. */
public final class NamespaceFormatter {
  private NamespaceFormatter() {
  }

  public static boolean isFormatted(MetadataStore store) throws StoreException {
    return store.identity() != null;
  }

  /** Formats {@code store}; refuses when a namespace exists unless {@code force}. Returns the new identity. */
  public static NamespaceIdentity format(MetadataStore store, Configuration conf, boolean force) throws IOException {
    long now = System.currentTimeMillis();
    int namespaceId = 1 + new SecureRandom().nextInt(Integer.MAX_VALUE - 1);
    NamespaceIdentity identity = new NamespaceIdentity(namespaceId, "CID-" + UUID.randomUUID(),
        "BP-" + namespaceId + "-127.0.0.1-" + now, now);
    String owner = UserGroupInformation.getCurrentUser().getShortUserName();
    String group = PermissionSettings.superGroup(conf);
    Inode root = Inode.builder()
        .id(InodePartitioning.ROOT_ID)
        .partitionId(InodePartitioning.ROOT_KEY.partitionId())
        .parentId(InodePartitioning.ROOT_PARENT_ID)
        .name(InodePartitioning.ROOT_NAME)
        .directory(true)
        .permission((short) 0755)
        .owner(owner)
        .group(group)
        .modificationTime(now)
        .spreadsChildren(InodePartitioning.spreads(0, InodePartitioning.DEFAULT_SPREAD_LEVELS))
        .build();
    store.format(identity, root, force);
    return identity;
  }
}

package io.canopy.namenode.fs;

import java.io.IOException;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;

/**
 * HDFS's storage policies: its default suite (HOT, WARM, COLD, ALL_SSD, ONE_SSD, LAZY_PERSIST, PROVIDED,
 * ALL_NVDIMM; the default one from {@code dfs.storage.default.policy}), and its switches
 * {@code dfs.storage.policy.enabled} and {@code dfs.storage.policy.permissions.superuser-only}. Canopy records and
 * reports policies; block placement does not look at storage types.
 */
public final class StoragePolicies {
  private final BlockStoragePolicySuite suite;
  private final boolean enabled;
  private final boolean superuserOnly;

  public StoragePolicies(Configuration conf) {
    this.suite = BlockStoragePolicySuite.createDefaultSuite(conf);
    this.enabled = conf.getBoolean(DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_KEY,
        DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_DEFAULT);
    this.superuserOnly = conf.getBoolean(DFSConfigKeys.DFS_STORAGE_POLICY_PERMISSIONS_SUPERUSER_ONLY_KEY,
        DFSConfigKeys.DFS_STORAGE_POLICY_PERMISSIONS_SUPERUSER_ONLY_DEFAULT);
  }

  public BlockStoragePolicy[] all() {
    return suite.getAllPolicies();
  }

  /** The policy of an id; 0 (unspecified) is the default policy. */
  public BlockStoragePolicy byId(byte id) {
    return suite.getPolicy(id);
  }

  /** The policy of a name (case-insensitive), or HDFS's error. */
  public BlockStoragePolicy byName(String name) {
    BlockStoragePolicy policy = suite.getPolicy(name);
    if (policy == null) {
      throw new HadoopIllegalArgumentException("Cannot find a block policy with the name " + name);
    }
    return policy;
  }

  /** HDFS's refusal when storage policies are disabled, e.g. for "set storage policy". */
  public void checkEnabled(String operation) throws IOException {
    if (!enabled) {
      throw new IOException("Failed to " + operation + " since " + DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_KEY
          + " is set to false.");
    }
  }

  public boolean superuserOnly() {
    return superuserOnly;
  }
}

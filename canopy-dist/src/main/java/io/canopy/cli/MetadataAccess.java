package io.canopy.cli;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.StoreException;
import io.canopy.namenode.NameNodeConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** Opens the metadata store a cluster's configuration names, with a small pool: the CLI runs one thing at a time. */
final class MetadataAccess {
  private static final String POOL_SIZE_KEY = "canopy.metadata.pool.size";
  private static final String CLI_POOL_SIZE = "2";

  private MetadataAccess() {
  }

  static MetadataStore open(Configuration conf) throws StoreException {
    Map<String, String> settings = new HashMap<>(NameNodeConfig.metadataSettings(conf));
    settings.put(POOL_SIZE_KEY, CLI_POOL_SIZE);
    String engine = conf.get(NameNodeConfig.METADATA_ENGINE, NameNodeConfig.METADATA_ENGINE_DEFAULT);
    return MetadataStoreProvider.open(engine, settings);
  }
}

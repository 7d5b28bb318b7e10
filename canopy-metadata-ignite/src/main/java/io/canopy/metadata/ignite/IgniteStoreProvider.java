package io.canopy.metadata.ignite;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.StoreException;
import java.util.Map;

/** The {@code ignite} engine (design 020): a store that is a thin client of an Apache Ignite 3 cluster. */
public final class IgniteStoreProvider implements MetadataStoreProvider {
  @Override
  public String engine() {
    return "ignite";
  }

  @Override
  public MetadataStore open(Map<String, String> settings) throws StoreException {
    return IgniteMetadataStore.open(new IgniteSettings(settings));
  }
}

package io.canopy.metadata.postgres;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.StoreException;
import java.util.Map;

/** Registers the {@code postgres} engine with {@link java.util.ServiceLoader}. */
public final class PostgresStoreProvider implements MetadataStoreProvider {
  @Override
  public String engine() {
    return "postgres";
  }

  @Override
  public MetadataStore open(Map<String, String> settings) throws StoreException {
    return PostgresMetadataStore.open(new PostgresSettings(settings));
  }
}

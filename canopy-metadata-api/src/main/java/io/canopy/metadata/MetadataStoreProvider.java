package io.canopy.metadata;

import java.util.Map;
import java.util.ServiceLoader;

/** Creates stores of one engine; engines are found with {@link ServiceLoader}. */
public interface MetadataStoreProvider {
  /** Engine name as configured in {@link MetadataConfig#ENGINE}, e.g. {@code postgres}. */
  String engine();

  /** Opens a store; {@code settings} holds the {@link MetadataConfig#PREFIX canopy.metadata.*} keys. */
  MetadataStore open(Map<String, String> settings) throws StoreException;

  /** Opens a store with the named engine, loaded from the class path. */
  static MetadataStore open(String engine, Map<String, String> settings) throws StoreException {
    StringBuilder known = new StringBuilder();
    for (MetadataStoreProvider provider : ServiceLoader.load(MetadataStoreProvider.class)) {
      if (provider.engine().equals(engine)) {
        return provider.open(settings);
      }
      known.append(known.length() == 0 ? "" : ", ").append(provider.engine());
    }
    throw new StoreException("No metadata engine named '" + engine + "' on the class path (known: " + known + ")");
  }
}

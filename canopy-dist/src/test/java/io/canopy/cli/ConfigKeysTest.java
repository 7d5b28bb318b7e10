package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.ClientConfig;
import io.canopy.metadata.MetadataConfig;
import io.canopy.metadata.postgres.PostgresSettings;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.SmallFilesConfig;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every Canopy key is declared once, in the config class of its area. Here because this module sees every area (the
 * namenode may not import the PostgreSQL engine).
 */
class ConfigKeysTest {
  /** The config classes, each with the prefix its keys share. */
  private static final Map<Class<?>, String> CONFIG_CLASSES = Map.of(
      NameNodeConfig.class, "canopy.namenode.",
      MetadataConfig.class, "canopy.metadata.",
      PostgresSettings.class, "canopy.metadata.",
      ClientConfig.class, "canopy.client.",
      SmallFilesConfig.class, "canopy.smallfiles.");

  @Test
  void noTwoConstantsNameTheSameKeyAndEachKeyIsInItsClassesArea() throws IllegalAccessException {
    Map<String, String> declaredBy = new HashMap<>();
    for (Map.Entry<Class<?>, String> config : CONFIG_CLASSES.entrySet()) {
      for (Field field : config.getKey().getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (!Modifier.isStatic(modifiers) || !Modifier.isFinal(modifiers) || field.getType() != String.class) {
          continue;
        }
        field.setAccessible(true);
        String value = (String) field.get(null);
        if (value == null || !value.startsWith("canopy.") || value.endsWith(".")) {
          continue; // a default value or a prefix, not a key
        }
        String name = config.getKey().getSimpleName() + "." + field.getName();
        assertTrue(value.startsWith(config.getValue()), name + " = " + value + " is outside " + config.getValue());
        String earlier = declaredBy.put(value, name);
        assertNull(earlier, value + " is declared by both " + earlier + " and " + name);
      }
    }
    assertTrue(declaredBy.size() > 40, "found the keys: " + declaredBy.keySet());
  }
}

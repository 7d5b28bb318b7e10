package io.canopy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SecuritySettingsTest {
  @Test
  void hadoopsDefaultsAndSimpleAuthenticationStart() throws Exception {
    SecuritySettings.checkSupported(new Configuration(), "a test");
    Configuration explicit = new Configuration(false);
    explicit.set("hadoop.security.authentication", "Simple");
    explicit.set("hadoop.security.authorization", "false");
    explicit.set("hadoop.rpc.protection", "authentication");
    explicit.set("dfs.block.access.token.enable", "false");
    explicit.set("dfs.encrypt.data.transfer", "false");
    explicit.set("dfs.data.transfer.protection", "");
    SecuritySettings.checkSupported(explicit, "a test");
  }

  @Test
  void everyRefusedSettingIsNamedInOneMessage() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hadoop.rpc.protection", "authentication,privacy");
    SecuritySettings.UnsupportedSecurityException refused = assertThrows(
        SecuritySettings.UnsupportedSecurityException.class, () -> SecuritySettings.checkSupported(conf, "a test"));
    String message = refused.getMessage();
    assertTrue(message.startsWith("Refusing to start a test: hadoop.security.authentication=kerberos"), message);
    assertTrue(message.contains("hadoop.rpc.protection=authentication,privacy"), message);
    assertTrue(message.contains("\"simple\""), message);
  }

  @Test
  void singleSettingsAsCanopyUpChecksThem() {
    assertTrue(SecuritySettings.problem("hadoop.security.authentication", "KERBEROS").isPresent());
    assertTrue(SecuritySettings.problem("hadoop.security.authorization", "true").isPresent());
    assertTrue(SecuritySettings.problem("dfs.encrypt.data.transfer", " true ").isPresent());
    assertTrue(SecuritySettings.problem("dfs.data.transfer.protection", "privacy").isPresent());
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.block.access.token.enable", "false"));
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.block.access.token.enable", "true"));
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.blocksize", "1048576"));
  }
}

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
  void kerberosWithBlockTokensStartsWithAnyProtection() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "Kerberos");
    conf.set("dfs.block.access.token.enable", "true");
    conf.set("hadoop.rpc.protection", "privacy");
    conf.set("dfs.data.transfer.protection", "integrity");
    conf.set("dfs.encrypt.data.transfer", "true");
    SecuritySettings.checkSupported(conf, "a test");
  }

  @Test
  void encryptedDataTransferNeedsBlockTokensOnly() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("dfs.encrypt.data.transfer", "true");
    String message = assertThrows(SecuritySettings.UnsupportedSecurityException.class,
        () -> SecuritySettings.checkSupported(conf, "a test")).getMessage();
    assertTrue(message.contains("dfs.encrypt.data.transfer=true") && message.contains("block.access.token"), message);
    conf.set("dfs.block.access.token.enable", "true");
    SecuritySettings.checkSupported(conf, "a test");
  }

  @Test
  void everyRefusedSettingIsNamedInOneMessage() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hadoop.security.authorization", "true");
    conf.set("dfs.encrypt.data.transfer", "true");
    SecuritySettings.UnsupportedSecurityException refused = assertThrows(
        SecuritySettings.UnsupportedSecurityException.class, () -> SecuritySettings.checkSupported(conf, "a test"));
    String message = refused.getMessage();
    assertTrue(message.startsWith("Refusing to start a test: hadoop.security.authentication=kerberos"), message);
    assertTrue(message.contains("dfs.block.access.token.enable=true"), "Kerberos needs block tokens: " + message);
    assertTrue(message.contains("hadoop.security.authorization=true"), message);
    assertTrue(message.contains("dfs.encrypt.data.transfer=true"), message);
    assertTrue(message.contains("\"simple\""), message);
  }

  @Test
  void protectionWithoutKerberosIsRefused() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.rpc.protection", "authentication,privacy");
    conf.set("dfs.data.transfer.protection", "privacy");
    String message = assertThrows(SecuritySettings.UnsupportedSecurityException.class,
        () -> SecuritySettings.checkSupported(conf, "a test")).getMessage();
    assertTrue(message.contains("hadoop.rpc.protection=authentication,privacy"), message);
    assertTrue(message.contains("dfs.data.transfer.protection=privacy"), message);
  }

  @Test
  void singleSettingsAsCanopyUpChecksThem() {
    assertTrue(SecuritySettings.problem("hadoop.security.authentication", "token").isPresent());
    assertEquals(Optional.empty(), SecuritySettings.problem("hadoop.security.authentication", "KERBEROS"),
        "the processes check what Kerberos needs besides");
    assertTrue(SecuritySettings.problem("hadoop.security.authorization", "true").isPresent());
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.encrypt.data.transfer", " true "),
        "with block tokens it is honoured: the processes check them");
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.block.access.token.enable", "false"));
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.block.access.token.enable", "true"));
    assertEquals(Optional.empty(), SecuritySettings.problem("dfs.blocksize", "1048576"));
  }
}

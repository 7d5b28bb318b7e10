package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.datanode.DataNodeLauncher;
import io.canopy.namenode.NameNode;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Security Canopy does not have, or that cannot hold, is refused at start (issue 12, item 10; issue 20): Kerberos
 * without block access tokens (as HDFS's namenode and DataNode refuse it), and every setting that would leave the
 * cluster unprotected while its operator believes otherwise. Each refusal names the key and says what Canopy's
 * authentication is. Kerberos itself works: {@code KerberosClusterTest}.
 */
@Timeout(120)
class SecuritySettingsTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().build();

  @Test
  void aKerberosNamenodeWithoutBlockTokensIsRefusedAtStartWithAClearMessage() {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("hadoop.security.authentication", "kerberos");
    IOException refused = assertThrows(IOException.class, () -> NameNode.start(conf).close());
    assertTrue(refused.getMessage().contains("hadoop.security.authentication=kerberos"), refused.getMessage());
    assertTrue(refused.getMessage().contains("dfs.block.access.token.enable=true"), refused.getMessage());
    assertTrue(refused.getMessage().contains("\"simple\""), refused.getMessage());
  }

  @Test
  void settingsThatWouldRunUnprotectedAreRefusedByNamenodesAndDatanodes() {
    Map<String, String> unprotected = Map.of("hadoop.security.authorization", "true",
        "hadoop.rpc.protection", "privacy", "dfs.encrypt.data.transfer", "true",
        "dfs.data.transfer.protection", "integrity");
    for (Map.Entry<String, String> setting : unprotected.entrySet()) {
      Configuration conf = new Configuration(CLUSTER.cluster().conf());
      conf.set(setting.getKey(), setting.getValue());
      IOException namenode = assertThrows(IOException.class, () -> NameNode.start(conf).close(),
          setting.toString());
      assertTrue(namenode.getMessage().contains(setting.getKey() + "=" + setting.getValue()), namenode.getMessage());
      Configuration dataNodeConf = CLUSTER.cluster().dataNodeConfiguration();
      dataNodeConf.set(setting.getKey(), setting.getValue());
      IOException datanode = assertThrows(IOException.class,
          () -> DataNodeLauncher.start(dataNodeConf, CLUSTER.directory().resolve("dn")).shutdown(), setting.toString());
      assertTrue(datanode.getMessage().contains(setting.getKey()), datanode.getMessage());
    }
  }
}

package io.canopy.client;

import io.canopy.client.proto.CanopyClientProtocolProtos.CanopyClientProtocolService;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSelector;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.token.TokenInfo;

/**
 * Canopy's own client calls on the namenode's client port, beside {@code ClientProtocol} (design 016): the protobuf
 * service of {@code src/main/proto/CanopyClientProtocol.proto} as Hadoop's RPC engine names it. With Kerberos it
 * authenticates as {@code ClientProtocol} does: the namenode's principal, or an HDFS delegation token.
 */
@KerberosInfo(serverPrincipal = HdfsClientConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY)
@TokenInfo(DelegationTokenSelector.class)
@ProtocolInfo(protocolName = CanopyClientProtocolPB.NAME, protocolVersion = 1)
public interface CanopyClientProtocolPB extends CanopyClientProtocolService.BlockingInterface {
  String NAME = "io.canopy.client.CanopyClientProtocol";
}

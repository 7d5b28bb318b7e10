package io.canopy.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Asks a namenode for the live namenode list through Hadoop's {@code GenericRefreshProtocol} (the protocol behind
 * {@code hdfs dfsadmin -refresh}) with the identifier {@value NamenodeList#IDENTIFIER}: no protocol of Canopy's own
 * on the wire. One short-lived RPC proxy per request; requests are rare (one per refresh interval).
 */
public final class NamenodeListClient implements NamenodeListSource {
  private final Configuration conf;
  private final UserGroupInformation user;
  private final int timeoutMs;

  public NamenodeListClient(Configuration conf, UserGroupInformation user, int timeoutMs) {
    this.conf = new Configuration(conf);
    // A namenode that does not answer is skipped for the next one: fail as fast as a failover would.
    this.conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, conf.getInt(
        HdfsClientConfigKeys.Failover.CONNECTION_RETRIES_KEY, HdfsClientConfigKeys.Failover.CONNECTION_RETRIES_DEFAULT));
    this.conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        conf.getInt(HdfsClientConfigKeys.Failover.CONNECTION_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
            HdfsClientConfigKeys.Failover.CONNECTION_RETRIES_ON_SOCKET_TIMEOUTS_DEFAULT));
    RPC.setProtocolEngine(this.conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    // With Kerberos, Hadoop's refresh protocol names its server principal by this key: the namenode's own
    String principal = conf.getTrimmed(HdfsClientConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, "");
    if (!principal.isEmpty()
        && this.conf.getTrimmed(CommonConfigurationKeysPublic.HADOOP_SECURITY_SERVICE_USER_NAME_KEY, "").isEmpty()) {
      this.conf.set(CommonConfigurationKeysPublic.HADOOP_SECURITY_SERVICE_USER_NAME_KEY, principal);
    }
    this.user = user;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public List<NamenodeList.Entry> fetch(String address) throws IOException {
    GenericRefreshProtocolPB proxy = RPC.getProxy(GenericRefreshProtocolPB.class,
        RPC.getProtocolVersion(GenericRefreshProtocolPB.class), NetUtils.createSocketAddr(address), user, conf,
        NetUtils.getDefaultSocketFactory(conf), timeoutMs);
    Collection<RefreshResponse> responses;
    try (GenericRefreshProtocolClientSideTranslatorPB client = new GenericRefreshProtocolClientSideTranslatorPB(proxy)) {
      responses = client.refresh(NamenodeList.IDENTIFIER, new String[0]);
    }
    if (responses.size() != 1) {
      throw new IOException("Namenode " + address + " answered " + responses.size() + " responses to "
          + NamenodeList.IDENTIFIER + ", expected one: " + responses);
    }
    RefreshResponse response = new ArrayList<>(responses).get(0);
    if (response.getReturnCode() != 0) {
      throw new IOException("Namenode " + address + " could not list the live namenodes: " + response);
    }
    try {
      return NamenodeList.parse(response.getMessage());
    } catch (IllegalArgumentException e) {
      throw new IOException("Namenode " + address + " answered an unusable namenode list: " + e.getMessage(), e);
    }
  }
}

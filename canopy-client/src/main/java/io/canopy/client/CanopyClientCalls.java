package io.canopy.client;

import io.canopy.client.proto.CanopyClientProtocolProtos.CompleteSmallRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.DeclareLocationRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.GetSmallFileSettingsRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.ReadSmallFileRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.ReadSmallFileResponseProto;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.LocatedBlocksProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/** Canopy's own calls to one namenode ({@link CanopyClientProtocolPB}), with the namenode's errors as IOExceptions. */
public final class CanopyClientCalls implements CanopyClientProtocol, Closeable {
  private final CanopyClientProtocolPB proxy;
  /** {@link ClientConfig#NETWORK_LOCATION}, sent with every open; null when unset. */
  private final String networkLocation;

  /** As the current user. */
  public CanopyClientCalls(Configuration conf, InetSocketAddress namenode) throws IOException {
    this(conf, namenode, UserGroupInformation.getCurrentUser());
  }

  public CanopyClientCalls(Configuration conf, InetSocketAddress namenode, UserGroupInformation user)
      throws IOException {
    this(conf, namenode, user, 0);
  }

  /**
   * With {@code rpcTimeoutMs} above 0, a call fails after that long without an answer, and a namenode that refuses
   * the connection is not retried beyond the failover connection retries (for background calls that must not hang).
   */
  public CanopyClientCalls(Configuration conf, InetSocketAddress namenode, UserGroupInformation user,
      int rpcTimeoutMs) throws IOException {
    this.networkLocation = ClientConfig.networkLocation(conf);
    Configuration own = new Configuration(conf);
    if (rpcTimeoutMs > 0) {
      own.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, conf.getInt(
          HdfsClientConfigKeys.Failover.CONNECTION_RETRIES_KEY, HdfsClientConfigKeys.Failover.CONNECTION_RETRIES_DEFAULT));
      own.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY, rpcTimeoutMs);
    }
    RPC.setProtocolEngine(own, CanopyClientProtocolPB.class, ProtobufRpcEngine2.class);
    this.proxy = RPC.getProxy(CanopyClientProtocolPB.class, RPC.getProtocolVersion(CanopyClientProtocolPB.class),
        namenode, user, own, NetUtils.getDefaultSocketFactory(own), rpcTimeoutMs);
  }

  @Override
  public int smallFileMaxBytes() throws IOException {
    try {
      return proxy.getSmallFileSettings(null, GetSmallFileSettingsRequestProto.getDefaultInstance()).getMaxBytes();
    } catch (ServiceException e) {
      throw unwrapped(e);
    }
  }

  @Override
  public boolean completeSmall(String src, String clientName, long fileId, long appendAt, byte[] data)
      throws IOException {
    try {
      return proxy.completeSmall(null, CompleteSmallRequestProto.newBuilder().setSrc(src).setClientName(clientName)
          .setFileId(fileId).setAppendAt(appendAt).setData(ByteString.copyFrom(data)).build()).getStored();
    } catch (ServiceException e) {
      throw unwrapped(e);
    }
  }

  @Override
  public SmallFileRead readSmallFile(String src, long offset, long length) throws IOException {
    ReadSmallFileResponseProto response;
    try {
      ReadSmallFileRequestProto.Builder request = ReadSmallFileRequestProto.newBuilder().setSrc(src)
          .setOffset(offset).setLength(length);
      if (networkLocation != null) {
        request.setNetworkLocation(networkLocation);
      }
      response = proxy.readSmallFile(null, request.build());
    } catch (ServiceException e) {
      throw unwrapped(e);
    }
    return new SmallFileRead(PBHelperClient.convert(LocatedBlocksProto.parseFrom(response.getLocatedBlocks())),
        response.hasData() ? response.getData().toByteArray() : null);
  }

  @Override
  public void declareLocation(String location) throws IOException {
    try {
      proxy.declareLocation(null, DeclareLocationRequestProto.newBuilder().setNetworkLocation(location).build());
    } catch (ServiceException e) {
      throw unwrapped(e);
    }
  }

  /**
   * The namenode's error as a {@link RemoteException} (so a retry policy above tells it from a connection's: Hadoop's
   * failover policy fails over and retries on any other IOException), or the connection's, as the RPC engine wrapped
   * it. {@link CanopyClientProxies} unwraps remote errors above the retries, as HDFS's DFSClient does.
   */
  private static IOException unwrapped(ServiceException e) {
    return e.getCause() instanceof IOException io ? io : new IOException(e);
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}

package io.canopy.client;

import io.canopy.client.proto.CanopyClientProtocolProtos.GetSmallFileSettingsRequestProto;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/** Canopy's own calls to one namenode ({@link CanopyClientProtocolPB}), with the namenode's errors as IOExceptions. */
public final class CanopyClientCalls implements Closeable {
  private final CanopyClientProtocolPB proxy;

  public CanopyClientCalls(Configuration conf, InetSocketAddress namenode) throws IOException {
    Configuration own = new Configuration(conf);
    RPC.setProtocolEngine(own, CanopyClientProtocolPB.class, ProtobufRpcEngine2.class);
    this.proxy = RPC.getProxy(CanopyClientProtocolPB.class, RPC.getProtocolVersion(CanopyClientProtocolPB.class),
        namenode, own);
  }

  /** Files up to this many bytes may be stored with their metadata; 0 when the namenode stores none. */
  public int smallFileMaxBytes() throws IOException {
    try {
      return proxy.getSmallFileSettings(null, GetSmallFileSettingsRequestProto.getDefaultInstance()).getMaxBytes();
    } catch (ServiceException e) {
      throw unwrapped(e);
    }
  }

  /** The namenode's error (a RemoteException) or the connection's, as the RPC engine wrapped it. */
  private static IOException unwrapped(ServiceException e) {
    return e.getCause() instanceof IOException io ? io : new IOException(e);
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}

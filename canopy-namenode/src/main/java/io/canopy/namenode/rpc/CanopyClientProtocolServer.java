package io.canopy.namenode.rpc;

import io.canopy.client.CanopyClientProtocolPB;
import io.canopy.client.proto.CanopyClientProtocolProtos.GetSmallFileSettingsRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.GetSmallFileSettingsResponseProto;
import io.canopy.namenode.SmallFilesConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.thirdparty.protobuf.RpcController;

/** Canopy's own client calls ({@link CanopyClientProtocolPB}), served on the client port beside ClientProtocol. */
public final class CanopyClientProtocolServer implements CanopyClientProtocolPB {
  private final GetSmallFileSettingsResponseProto smallFileSettings;

  /** Fails at start when {@link SmallFilesConfig#MAX_BYTES} is out of its bounds. */
  public CanopyClientProtocolServer(Configuration conf) {
    this.smallFileSettings = GetSmallFileSettingsResponseProto.newBuilder()
        .setMaxBytes(SmallFilesConfig.maxBytes(conf)).build();
  }

  @Override
  public GetSmallFileSettingsResponseProto getSmallFileSettings(RpcController controller,
      GetSmallFileSettingsRequestProto request) {
    return smallFileSettings;
  }
}

package io.canopy.client;

import io.canopy.client.proto.CanopyClientProtocolProtos.CanopyClientProtocolService;
import org.apache.hadoop.ipc.ProtocolInfo;

/**
 * Canopy's own client calls on the namenode's client port, beside {@code ClientProtocol} (design 016): the protobuf
 * service of {@code src/main/proto/CanopyClientProtocol.proto} as Hadoop's RPC engine names it.
 */
@ProtocolInfo(protocolName = CanopyClientProtocolPB.NAME, protocolVersion = 1)
public interface CanopyClientProtocolPB extends CanopyClientProtocolService.BlockingInterface {
  String NAME = "io.canopy.client.CanopyClientProtocol";
}

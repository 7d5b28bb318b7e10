package io.canopy.namenode.rpc;

import io.canopy.client.CanopyClientProtocolPB;
import io.canopy.client.proto.CanopyClientProtocolProtos.CompleteSmallRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.CompleteSmallResponseProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.DeclareLocationRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.DeclareLocationResponseProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.GetSmallFileSettingsRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.GetSmallFileSettingsResponseProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.ReadSmallFileRequestProto;
import io.canopy.client.proto.CanopyClientProtocolProtos.ReadSmallFileResponseProto;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.BlockTokens;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.fs.StorableText;
import io.canopy.namenode.ops.CompleteSmallOp;
import io.canopy.namenode.ops.ReadSmallFileOp;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.topology.ReaderOrder;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.fs.InvalidRequestException;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/**
 * Canopy's own client calls ({@link CanopyClientProtocolPB}, design 016), served on the client port beside
 * ClientProtocol: each is one operation in one transaction, with the same safe-mode, name and permission checks as
 * its ClientProtocol counterpart. Failures leave through {@link DatabaseErrorBoundary}.
 */
public final class CanopyClientProtocolServer implements CanopyClientProtocolPB {
  private static final CompleteSmallResponseProto STORED = CompleteSmallResponseProto.newBuilder().setStored(true)
      .build();
  private static final CompleteSmallResponseProto NOT_STORED = CompleteSmallResponseProto.newBuilder()
      .setStored(false).build();

  private final NamespaceServices services;
  private final BlockServices blocks;
  private final TransactionRunner runner;
  private final GetSmallFileSettingsResponseProto smallFileSettings;

  /** Block access tokens for the located blocks a read answers with (off unless configured). */
  private final BlockTokens blockTokens;

  public CanopyClientProtocolServer(NamespaceServices services, BlockServices blocks, TransactionRunner runner,
      BlockTokens blockTokens) {
    this.blockTokens = blockTokens;
    this.services = services;
    this.blocks = blocks;
    this.runner = runner;
    this.smallFileSettings = GetSmallFileSettingsResponseProto.newBuilder()
        .setMaxBytes(services.limits().smallFileMaxBytes()).build();
  }

  @Override
  public GetSmallFileSettingsResponseProto getSmallFileSettings(RpcController controller,
      GetSmallFileSettingsRequestProto request) {
    return smallFileSettings;
  }

  @Override
  public CompleteSmallResponseProto completeSmall(RpcController controller, CompleteSmallRequestProto request)
      throws ServiceException {
    try {
      String src = request.getSrc();
      services.safeMode().check("Cannot complete file " + src);
      StorableText.require("client name", request.getClientName());
      CompleteSmallOp.Outcome outcome = runner.run(new CompleteSmallOp(services, FsPath.parse("completeSmall", src),
          request.getFileId(), request.getClientName(), request.getAppendAt(), request.getData().toByteArray(),
          permissions()));
      return outcome == CompleteSmallOp.Outcome.STORED ? STORED : NOT_STORED;
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public ReadSmallFileResponseProto readSmallFile(RpcController controller, ReadSmallFileRequestProto request)
      throws ServiceException {
    try {
      ReadSmallFileOp.Result result = runner.run(new ReadSmallFileOp(blocks.locator(),
          FsPath.parse("readSmallFile", request.getSrc()), request.getOffset(), request.getLength(), permissions()));
      String clientIp = Server.getRemoteAddress();
      NetworkLocation declared = ReaderOrder.declared(request.hasNetworkLocation() ? request.getNetworkLocation()
          : null);
      if (declared != null) {
        blocks.clients().declare(Server.getClientId(), declared);
      } else {
        declared = blocks.clients().declared(Server.getClientId());
      }
      LocatedBlocks located = blocks.readers().sort(result.blocks(), blocks.readers().readerAt(declared, clientIp),
          clientIp);
      blockTokens.signAll(located, BlockTokenIdentifier.AccessMode.READ, CallerInfo.user());
      ReadSmallFileResponseProto.Builder response = ReadSmallFileResponseProto.newBuilder()
          .setLocatedBlocks(PBHelperClient.convert(located).toByteString());
      if (result.data() != null) {
        response.setData(ByteString.copyFrom(result.data()));
      }
      return response.build();
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public DeclareLocationResponseProto declareLocation(RpcController controller, DeclareLocationRequestProto request)
      throws ServiceException {
    try {
      NetworkLocation location;
      try {
        location = NetworkLocation.parse(request.getNetworkLocation());
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException(e.getMessage());
      }
      blocks.clients().declare(Server.getClientId(), location);
      return DeclareLocationResponseProto.getDefaultInstance();
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  private PermissionChecker permissions() {
    return PermissionChecker.of(services.permissions(), CallerInfo.caller());
  }
}

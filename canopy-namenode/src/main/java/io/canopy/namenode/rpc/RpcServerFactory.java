package io.canopy.namenode.rpc;

import io.canopy.namenode.membership.MembershipView;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.FSLimitException;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.apache.hadoop.hdfs.protocol.UnresolvedPathException;
import org.apache.hadoop.hdfs.protocol.XAttrNotFoundException;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.ClientNamenodeProtocol;
import org.apache.hadoop.hdfs.protocol.proto.DatanodeProtocolProtos.DatanodeProtocolService;
import org.apache.hadoop.hdfs.protocol.proto.NamenodeProtocolProtos.NamenodeProtocolService;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.protocolPB.NamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.NamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.ipc.proto.GenericRefreshProtocolProtos.GenericRefreshProtocolService;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolServerSideTranslatorPB;

/**
 * One Hadoop RPC server carrying ClientProtocol, DatanodeProtocol, NamenodeProtocol and GenericRefreshProtocol (the
 * live namenode list, {@link NamenodeListServer}), each through Hadoop's own server-side protobuf translator
 * (byte-exact wire compatibility).
 */
public final class RpcServerFactory {
  private RpcServerFactory() {
  }

  public static RPC.Server build(Configuration conf, InetSocketAddress address, int handlers,
      ClientProtocolServer client, ClusterAdminCalls admin, DatanodeProtocol datanode, NamenodeProtocolServer namenode,
      MembershipView membership) throws IOException {
    RPC.setProtocolEngine(conf, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, DatanodeProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, NamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    ClientProtocol clientProtocol = UnsupportedCallProxy.create(ClientProtocol.class, client, admin);
    RPC.Server server = new RPC.Builder(conf)
        .setProtocol(ClientNamenodeProtocolPB.class)
        .setInstance(ClientNamenodeProtocol.newReflectiveBlockingService(
            new ClientNamenodeProtocolServerSideTranslatorPB(clientProtocol)))
        .setBindAddress(address.getHostString())
        .setPort(address.getPort())
        .setNumHandlers(handlers)
        .setVerbose(false)
        .build();
    int maxDataLength = conf.getInt("ipc.maximum.data.length", 128 * 1024 * 1024);
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, DatanodeProtocolPB.class,
        DatanodeProtocolService.newReflectiveBlockingService(
            new DatanodeProtocolServerSideTranslatorPB(datanode, maxDataLength)));
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, NamenodeProtocolPB.class,
        NamenodeProtocolService.newReflectiveBlockingService(new NamenodeProtocolServerSideTranslatorPB(
            UnsupportedCallProxy.create(NamenodeProtocol.class, namenode))));
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, GenericRefreshProtocolPB.class,
        GenericRefreshProtocolService.newReflectiveBlockingService(
            new GenericRefreshProtocolServerSideTranslatorPB(new NamenodeListServer(membership))));
    // Answers to user mistakes are not server errors: log them in one line, not with a stack trace.
    server.addTerseExceptions(FileNotFoundException.class, FileAlreadyExistsException.class,
        ParentNotDirectoryException.class, PathIsNotEmptyDirectoryException.class, InvalidPathException.class,
        FSLimitException.class, LeaseExpiredException.class, NotReplicatedYetException.class,
        AlreadyBeingCreatedException.class, UnsupportedOperationException.class, IllegalArgumentException.class,
        UnresolvedPathException.class, XAttrNotFoundException.class, SnapshotException.class);
    // append, truncate and concat refuse with these (exact classes: terse logging does not cover subclasses)
    server.addTerseExceptions(HadoopIllegalArgumentException.class, RecoveryInProgressException.class);
    // a user running into a quota is not a server problem (HDFS lists them too)
    server.addTerseExceptions(NSQuotaExceededException.class, DSQuotaExceededException.class);
    // a database that does not answer fails every call for a while: one line each, whose message names it
    server.addTerseExceptions(RetriableException.class);
    return server;
  }
}

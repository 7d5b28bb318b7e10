package io.canopy.namenode.rpc;

import io.canopy.client.CanopyClientProtocolPB;
import io.canopy.client.proto.CanopyClientProtocolProtos.CanopyClientProtocolService;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.datanode.StaleRegistrationException;
import io.canopy.namenode.membership.MembershipView;
import io.canopy.namenode.security.DatanodeCallers;
import io.canopy.namenode.security.SharedDelegationTokens;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
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
import org.apache.hadoop.hdfs.protocol.UnregisteredNodeException;
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
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RpcNoSuchProtocolException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.ipc.proto.GenericRefreshProtocolProtos.GenericRefreshProtocolService;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolServerSideTranslatorPB;

/**
 * The namenode's two Hadoop RPC servers (HDFS's client and service RPC servers), each protocol through Hadoop's own
 * server-side protobuf translator (byte-exact wire compatibility). The client port carries ClientProtocol, the live
 * namenode list on GenericRefreshProtocol ({@link NamenodeListServer}) and NamenodeProtocol; the service port carries
 * DatanodeProtocol and NamenodeProtocol. DatanodeProtocol is not served to clients: on the client port every call of
 * it is refused, naming the service port ({@link ClientPortDatanodeRefusal}).
 */
public final class RpcServerFactory {
  private RpcServerFactory() {
  }

  /**
   * The servers, not started yet; the service port is bound first, so the client port's refusal can name it. With
   * Kerberos ({@code hadoop.security.authentication=kerberos}, the process logged in) both accept SASL only: the
   * client port Kerberos and delegation tokens verified by {@code tokens} (null: none accepted), whose threads start
   * here and stop with the servers; the service port Kerberos alone (datanodes hold no tokens), and DatanodeProtocol
   * only from the datanodes' principal ({@link DatanodeCallers}).
   */
  public static RpcServers build(Configuration conf, InetSocketAddress clientAddress,
      InetSocketAddress serviceAddress, ClientProtocol client, CanopyClientProtocolServer canopyCalls,
      DatanodeProtocol datanode, NamenodeProtocolServer namenode, MembershipView membership,
      SharedDelegationTokens tokens) throws IOException {
    RPC.setProtocolEngine(conf, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, DatanodeProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, NamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.setProtocolEngine(conf, CanopyClientProtocolPB.class, ProtobufRpcEngine2.class);
    RPC.Server service;
    try {
      if (tokens != null) {
        tokens.startThreads();
      }
      service = buildService(conf, serviceAddress, DatanodeCallers.checked(datanode, conf), namenode);
    } catch (IOException | RuntimeException e) {
      if (tokens != null) {
        tokens.stopThreads();
      }
      throw e;
    }
    try {
      InetSocketAddress serviceBound = service.getListenerAddress();
      RPC.Server clients = buildClient(conf, clientAddress, client, canopyCalls,
          ClientPortDatanodeRefusal.create(serviceBound.getHostString() + ":" + serviceBound.getPort()), namenode,
          membership, tokens);
      return new RpcServers(clients, service, tokens);
    } catch (IOException | RuntimeException e) {
      service.stop();
      if (tokens != null) {
        tokens.stopThreads();
      }
      throw e;
    }
  }

  private static RPC.Server buildService(Configuration conf, InetSocketAddress address, DatanodeProtocol datanode,
      NamenodeProtocolServer namenode) throws IOException {
    RPC.Server server = new RPC.Builder(conf)
        .setProtocol(DatanodeProtocolPB.class)
        .setInstance(DatanodeProtocolService.newReflectiveBlockingService(
            new DatanodeProtocolServerSideTranslatorPB(datanode, maxDataLength(conf))))
        .setBindAddress(address.getHostString())
        .setPort(address.getPort())
        .setNumHandlers(NameNodeConfig.serviceHandlerCount(conf))
        .setVerbose(false)
        .build();
    addNamenodeProtocol(server, namenode);
    // Refused registrations are the caller's problem, told in one line (the datanode logs the answer).
    server.addTerseExceptions(UnregisteredNodeException.class, StaleRegistrationException.class);
    return server;
  }

  private static RPC.Server buildClient(Configuration conf, InetSocketAddress address, ClientProtocol client,
      CanopyClientProtocolServer canopyCalls, DatanodeProtocol refusal, NamenodeProtocolServer namenode,
      MembershipView membership, SharedDelegationTokens tokens) throws IOException {
    RPC.Server server = new RPC.Builder(conf)
        .setProtocol(ClientNamenodeProtocolPB.class)
        .setInstance(DatabaseErrorBoundary.around(ClientNamenodeProtocol.newReflectiveBlockingService(
            new ClientNamenodeProtocolServerSideTranslatorPB(client))))
        .setBindAddress(address.getHostString())
        .setPort(address.getPort())
        .setNumHandlers(NameNodeConfig.handlerCount(conf))
        .setSecretManager(tokens)
        .setVerbose(false)
        .build();
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, DatanodeProtocolPB.class,
        DatanodeProtocolService.newReflectiveBlockingService(
            new DatanodeProtocolServerSideTranslatorPB(refusal, maxDataLength(conf))));
    // NNThroughputBenchmark asks versionRequest on the address it benchmarks, the client port (as HDFS serves it).
    addNamenodeProtocol(server, namenode);
    // Canopy's own client calls (design 016): a stock client never asks for them
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, CanopyClientProtocolPB.class,
        DatabaseErrorBoundary.around(CanopyClientProtocolService.newReflectiveBlockingService(canopyCalls)));
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
    // nor is a change refused in safe mode (HDFS lists it too)
    server.addTerseExceptions(SafeModeException.class);
    // a datanode (or anyone) sending DatanodeProtocol to the client port
    server.addTerseExceptions(RpcNoSuchProtocolException.class);
    // a database that does not answer fails every call for a while: one line each, whose message names it
    server.addTerseExceptions(RetriableException.class);
    return server;
  }

  private static void addNamenodeProtocol(RPC.Server server, NamenodeProtocolServer namenode) {
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, NamenodeProtocolPB.class,
        NamenodeProtocolService.newReflectiveBlockingService(new NamenodeProtocolServerSideTranslatorPB(
            UnsupportedCallProxy.create(NamenodeProtocol.class, namenode))));
  }

  private static int maxDataLength(Configuration conf) {
    return conf.getInt(CommonConfigurationKeys.IPC_MAXIMUM_DATA_LENGTH,
        CommonConfigurationKeys.IPC_MAXIMUM_DATA_LENGTH_DEFAULT);
  }
}

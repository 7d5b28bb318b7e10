package io.canopy.namenode.blocks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The namenode's {@link ClientProtocol} with block access tokens on the located blocks it hands out, as HDFS's namenode
 * signs them: READ for getBlockLocations and getLocatedFileInfo (when the client asks for tokens), WRITE for addBlock,
 * append's last block and updateBlockForPipeline, COPY for getAdditionalDatanode; issued to the caller; and the data
 * encryption keys of {@code dfs.encrypt.data.transfer} (getDataEncryptionKey). Installed only
 * when tokens are on ({@link BlockTokens#enabled}); the operations themselves know nothing of tokens.
 */
public final class BlockTokenSigning implements InvocationHandler {
  private final ClientProtocol delegate;
  private final BlockTokens tokens;

  private BlockTokenSigning(ClientProtocol delegate, BlockTokens tokens) {
    this.delegate = delegate;
    this.tokens = tokens;
  }

  /** {@code delegate}, signing what it answers with {@code tokens}; {@code delegate} itself when tokens are off. */
  public static ClientProtocol wrap(ClientProtocol delegate, BlockTokens tokens) {
    if (!tokens.enabled()) {
      return delegate;
    }
    return (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
        new Class<?>[] {ClientProtocol.class}, new BlockTokenSigning(delegate, tokens));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("getDataEncryptionKey")) {
      return tokens.dataEncryptionKey(); // from the block keys, as HDFS's namenode answers it
    }
    Object result;
    try {
      result = method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    switch (method.getName()) {
      case "getBlockLocations" -> tokens.signAll((LocatedBlocks) result, AccessMode.READ, caller());
      case "getLocatedFileInfo" -> {
        if (result instanceof HdfsLocatedFileStatus status && Boolean.TRUE.equals(args[1])) {
          tokens.signAll(status.getLocatedBlocks(), AccessMode.READ, caller());
        }
      }
      case "addBlock", "updateBlockForPipeline" -> tokens.sign((LocatedBlock) result, AccessMode.WRITE, caller());
      case "append" -> {
        if (result instanceof LastBlockWithStatus appended) {
          tokens.sign(appended.getLastBlock(), AccessMode.WRITE, caller());
        }
      }
      case "getAdditionalDatanode" -> tokens.sign((LocatedBlock) result, AccessMode.COPY, caller());
      default -> {
        // no located block in the answer
      }
    }
    return result;
  }

  /** The caller's short name, as HDFS puts it in the token (datanodes do not check it). */
  static String caller() {
    UserGroupInformation remote = Server.getRemoteUser();
    try {
      return (remote != null ? remote : UserGroupInformation.getCurrentUser()).getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the calling user", e);
    }
  }
}

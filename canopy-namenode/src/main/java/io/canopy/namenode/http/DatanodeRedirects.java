package io.canopy.namenode.http;

import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.smallfiles.SmallFilesDatanode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.resources.DelegationParam;
import org.apache.hadoop.hdfs.web.resources.DoAsParam;
import org.apache.hadoop.hdfs.web.resources.ExcludeDatanodesParam;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.NamenodeAddressParam;
import org.apache.hadoop.hdfs.web.resources.Param;
import org.apache.hadoop.hdfs.web.resources.PostOpParam;
import org.apache.hadoop.hdfs.web.resources.UserParam;
import org.apache.hadoop.util.StringUtils;

/**
 * HDFS's two-step data calls: the namenode answers CREATE, APPEND, OPEN and GETFILECHECKSUM with the address of a
 * datanode's WebHDFS endpoint (the stock DataNode serves it), which then calls this namenode back over RPC at the
 * address the redirect names ({@code namenoderpcaddress}). Reads go to a datanode holding the block at the offset,
 * an append to one holding the last block, a new file to the datanode the placement policy would choose first.
 */
final class DatanodeRedirects {
  private final ClientProtocol namenode;
  private final BlockPlacement placement;
  private final DatanodeRegistry registry;
  private final Supplier<InetSocketAddress> rpcAddress;
  private final WebHdfsTokens tokens;

  DatanodeRedirects(ClientProtocol namenode, BlockPlacement placement, DatanodeRegistry registry,
      Supplier<InetSocketAddress> rpcAddress, WebHdfsTokens tokens) {
    this.tokens = tokens;
    this.namenode = namenode;
    this.placement = placement;
    this.registry = registry;
    this.rpcAddress = rpcAddress;
  }

  /**
   * The datanode URI for {@code op} on the request's path; {@code forwarded} are the parameters the datanode needs
   * (the caller's user and proxy user, or with Kerberos a delegation token, are always passed on).
   */
  URI of(WebHdfsRequest request, HttpOpParam.Op op, long openOffset, Param<?, ?>... forwarded) throws IOException {
    String path = request.path();
    if (!DFSUtil.isValidName(path)) {
      throw new InvalidPathException(path);
    }
    String excluded = request.param(ExcludeDatanodesParam.class).getValue();
    DatanodeInfo datanode = choose(path, op, openOffset, excludedUuids(excluded), request.remoteAddress());
    if (datanode == null) {
      throw new IOException("Failed to find datanode, suggest to check cluster health. excludeDatanodes="
          + excluded);
    }
    StringBuilder query = new StringBuilder(op.toQueryString());
    String delegation = tokens.forRedirect(request);
    if (delegation.isEmpty()) {
      query.append(Param.toSortedString("&", request.param(DoAsParam.class), request.param(UserParam.class)));
    } else { // Kerberos: the datanode authenticates to this namenode with the token (user.name and doas are ignored)
      query.append('&').append(new DelegationParam(delegation));
    }
    query.append('&').append(new NamenodeAddressParam(WebHdfs.hostAndPort(rpcAddress.get())));
    query.append(Param.toSortedString("&", forwarded));
    try {
      return new URI("http", null, datanode.getHostName(), datanode.getInfoPort(),
          WebHdfsFileSystem.PATH_PREFIX + path, query.toString(), null);
    } catch (URISyntaxException e) {
      throw new IOException("Cannot redirect " + op + " of " + path + " to datanode " + datanode + ": " + e, e);
    }
  }

  private DatanodeInfo choose(String path, HttpOpParam.Op op, long openOffset, Set<String> excluded,
      String remoteAddress) throws IOException {
    if (op == GetOpParam.Op.OPEN || op == GetOpParam.Op.GETFILECHECKSUM || op == PostOpParam.Op.APPEND) {
      HdfsFileStatus status = namenode.getFileInfo(path);
      if (status == null) {
        throw new FileNotFoundException("File " + path + " not found.");
      }
      long length = status.getLen();
      if (op == GetOpParam.Op.OPEN && (openOffset < 0 || (openOffset >= length && length > 0))) {
        throw new IOException("Offset=" + openOffset + " out of the range [0, " + length + "); " + op + ", path="
            + path);
      }
      if (length > 0) {
        DatanodeInfo holder = holder(path, op == GetOpParam.Op.OPEN ? openOffset : length - 1, excluded);
        if (holder != null) {
          return holder;
        }
      }
    }
    return placed(path, excluded, remoteAddress);
  }

  /**
   * The first datanode (in the namenode's reader order) holding the block at {@code offset}; null for a file
   * stored in the database (any datanode's client reads it from the namenode).
   */
  private DatanodeInfo holder(String path, long offset, Set<String> excluded) throws IOException {
    LocatedBlocks located = namenode.getBlockLocations(path, offset, 1);
    if (located == null || located.locatedBlockCount() == 0) {
      throw new IOException("Block could not be located. Path=" + path + ", offset=" + offset);
    }
    boolean inDatabase = false;
    for (DatanodeInfo node : located.get(0).getLocations()) {
      if (SmallFilesDatanode.isSmallFilesDatanode(node)) {
        inDatabase = true;
      } else if (!node.isDecommissioned() && !excluded.contains(node.getDatanodeUuid())) {
        return node;
      }
    }
    if (inDatabase) {
      return null;
    }
    throw new IOException("No active and not excluded nodes contain this block");
  }

  /** The datanode block placement would choose first for a writer at {@code remoteAddress}. */
  private DatanodeInfo placed(String path, Set<String> excluded, String remoteAddress) throws IOException {
    var targets = placement.choose(path, 1, 1, excluded, remoteAddress);
    return targets.isEmpty() ? null : DatanodeRegistry.info(targets.get(0).node().record());
  }

  /** The live datanodes {@code excludedatanodes} names, as host:transferPort or host alone. */
  private Set<String> excludedUuids(String excluded) throws IOException {
    Set<String> uuids = new HashSet<>();
    if (excluded == null || excluded.isBlank()) {
      return uuids;
    }
    List<DatanodeRegistry.Node> live = registry.live();
    for (String entry : StringUtils.getTrimmedStringCollection(excluded)) {
      int colon = entry.lastIndexOf(':');
      String host = colon < 0 ? entry : entry.substring(0, colon);
      int port = colon < 0 ? -1 : Integer.parseInt(entry.substring(colon + 1));
      for (DatanodeRegistry.Node node : live) {
        var record = node.record();
        boolean sameHost = host.equals(record.ipAddress()) || host.equals(record.hostName());
        if (sameHost && (port < 0 || port == record.transferPort())) {
          uuids.add(record.uuid());
        }
      }
    }
    return uuids;
  }
}

package io.canopy.namenode.http;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.web.JsonUtil;
import org.apache.hadoop.hdfs.web.resources.BufferSizeParam;
import org.apache.hadoop.hdfs.web.resources.FsActionParam;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.LengthParam;
import org.apache.hadoop.hdfs.web.resources.OffsetParam;
import org.apache.hadoop.hdfs.web.resources.OldSnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotDiffIndexParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotDiffStartPathParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.StartAfterParam;
import org.apache.hadoop.hdfs.web.resources.XAttrEncodingParam;
import org.apache.hadoop.hdfs.web.resources.XAttrNameParam;
import org.apache.hadoop.security.UserGroupInformation;

/** WebHDFS's GET operations, each a call of the namenode's {@code ClientProtocol} answered in HDFS's JSON. */
final class WebHdfsReads {
  private final ClientProtocol namenode;
  private final Configuration conf;
  private final DatanodeRedirects redirects;
  private final URI fileSystemUri;

  WebHdfsReads(ClientProtocol namenode, Configuration conf, DatanodeRedirects redirects, URI fileSystemUri) {
    this.namenode = namenode;
    this.conf = conf;
    this.redirects = redirects;
    this.fileSystemUri = fileSystemUri;
  }

  Map<GetOpParam.Op, WebHdfsHandler> handlers() {
    Map<GetOpParam.Op, WebHdfsHandler> handlers = new EnumMap<>(GetOpParam.Op.class);
    handlers.put(GetOpParam.Op.OPEN, this::open);
    handlers.put(GetOpParam.Op.GETFILECHECKSUM, request -> WebHdfsAnswer.redirect(
        redirects.of(request, GetOpParam.Op.GETFILECHECKSUM, -1), request.noRedirect()));
    handlers.put(GetOpParam.Op.GETFILESTATUS, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(existing(namenode.getFileInfo(request.path()), request), true)));
    handlers.put(GetOpParam.Op.GETFILELINKSTATUS, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(existing(namenode.getFileLinkInfo(request.path()), request), true)));
    handlers.put(GetOpParam.Op.LISTSTATUS, this::listStatus);
    handlers.put(GetOpParam.Op.LISTSTATUS_BATCH, this::listStatusBatch);
    handlers.put(GetOpParam.Op.GETCONTENTSUMMARY, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getContentSummary(request.path()))));
    handlers.put(GetOpParam.Op.GETQUOTAUSAGE, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getQuotaUsage(request.path()))));
    handlers.put(GetOpParam.Op.GETHOMEDIRECTORY, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString("Path", home(request.user()))));
    handlers.put(GetOpParam.Op.GETTRASHROOT, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString("Path", home(request.user()) + "/" + FileSystem.TRASH_PREFIX)));
    handlers.put(GetOpParam.Op.GETTRASHROOTS, this::trashRoots);
    handlers.put(GetOpParam.Op.GETFILEBLOCKLOCATIONS, request -> WebHdfsAnswer.json(JsonUtil.toJsonString(
        DFSUtilClient.locatedBlocks2Locations(namenode.getBlockLocations(request.path(), offset(request),
            length(request))))));
    handlers.put(GetOpParam.Op.GET_BLOCK_LOCATIONS, request -> WebHdfsAnswer.json(JsonUtil.toJsonString(
        namenode.getBlockLocations(request.path(), offset(request), length(request)))));
    handlers.put(GetOpParam.Op.GETACLSTATUS, request -> {
      AclStatus status = namenode.getAclStatus(request.path());
      if (status == null) {
        throw new FileNotFoundException("File does not exist: " + request.path());
      }
      return WebHdfsAnswer.json(JsonUtil.toJsonString(status));
    });
    handlers.put(GetOpParam.Op.GETXATTRS, this::getXAttrs);
    handlers.put(GetOpParam.Op.LISTXATTRS, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.listXAttrs(request.path()))));
    handlers.put(GetOpParam.Op.CHECKACCESS, request -> {
      String action = request.required("CHECKACCESS", FsActionParam.class).getValue();
      namenode.checkAccess(request.path(), FsAction.getFsAction(action));
      return WebHdfsAnswer.empty();
    });
    handlers.put(GetOpParam.Op.GETALLSTORAGEPOLICY, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getStoragePolicies())));
    handlers.put(GetOpParam.Op.GETSTORAGEPOLICY, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getStoragePolicy(request.path()))));
    handlers.put(GetOpParam.Op.GETSERVERDEFAULTS, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getServerDefaults())));
    handlers.put(GetOpParam.Op.GETLINKTARGET, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString("Path", namenode.getLinkTarget(request.path()))));
    handlers.put(GetOpParam.Op.GETSTATUS, request -> {
      long[] stats = namenode.getStats();
      return WebHdfsAnswer.json(JsonUtil.toJsonString(new FsStatus(DFSClient.getStateAtIndex(stats, 0),
          DFSClient.getStateAtIndex(stats, 1), DFSClient.getStateAtIndex(stats, 2))));
    });
    handlers.put(GetOpParam.Op.GETECPOLICY, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getErasureCodingPolicy(request.path()))));
    handlers.put(GetOpParam.Op.GETECPOLICIES, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getErasureCodingPolicies())));
    handlers.put(GetOpParam.Op.GETECCODECS, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString("ErasureCodingCodecs", namenode.getErasureCodingCodecs())));
    handlers.put(GetOpParam.Op.GETSNAPSHOTTABLEDIRECTORYLIST, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getSnapshottableDirListing())));
    handlers.put(GetOpParam.Op.GETSNAPSHOTLIST, request -> WebHdfsAnswer.json(
        JsonUtil.toJsonString(namenode.getSnapshotListing(request.path()))));
    handlers.put(GetOpParam.Op.GETSNAPSHOTDIFF, request -> WebHdfsAnswer.json(JsonUtil.toJsonString(
        namenode.getSnapshotDiffReport(request.path(), request.param(OldSnapshotNameParam.class).getValue(),
            request.param(SnapshotNameParam.class).getValue()))));
    handlers.put(GetOpParam.Op.GETSNAPSHOTDIFFLISTING, request -> WebHdfsAnswer.json(JsonUtil.toJsonString(
        namenode.getSnapshotDiffReportListing(request.path(), request.param(OldSnapshotNameParam.class).getValue(),
            request.param(SnapshotNameParam.class).getValue(),
            DFSUtilClient.string2Bytes(request.param(SnapshotDiffStartPathParam.class).getValue()),
            request.param(SnapshotDiffIndexParam.class).getValue()))));
    return handlers;
  }

  private WebHdfsAnswer open(WebHdfsRequest request) throws IOException {
    OffsetParam offset = request.param(OffsetParam.class);
    URI location = redirects.of(request, GetOpParam.Op.OPEN, offset.getValue(), offset,
        request.param(LengthParam.class), request.param(BufferSizeParam.class));
    return WebHdfsAnswer.redirect(location, request.noRedirect());
  }

  /** The whole listing, page after page, written as it is read; the first page is read before the answer starts. */
  private WebHdfsAnswer listStatus(WebHdfsRequest request) throws IOException {
    String path = request.path();
    DirectoryListing first = listing(path, HdfsFileStatus.EMPTY_NAME);
    UserGroupInformation user = request.user();
    return WebHdfsAnswer.streamedJson(out -> {
      PrintWriter writer = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
      writer.println("{\"FileStatuses\":{\"FileStatus\":[");
      long written = 0;
      DirectoryListing page = first;
      while (true) {
        for (HdfsFileStatus status : page.getPartialListing()) {
          if (written++ > 0) {
            writer.println(',');
          }
          writer.print(JsonUtil.toJsonString(status, false));
        }
        if (!page.hasMore()) {
          break;
        }
        byte[] after = page.getLastName();
        try {
          page = user.doAs((java.security.PrivilegedExceptionAction<DirectoryListing>) () -> listing(path, after));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while listing " + path);
        }
      }
      writer.println();
      writer.println("]}}");
      writer.flush();
    });
  }

  private WebHdfsAnswer listStatusBatch(WebHdfsRequest request) throws IOException {
    String startAfter = request.param(StartAfterParam.class).getValue();
    byte[] start = startAfter == null ? HdfsFileStatus.EMPTY_NAME : startAfter.getBytes(StandardCharsets.UTF_8);
    return WebHdfsAnswer.json(JsonUtil.toJsonString(listing(request.path(), start)));
  }

  private DirectoryListing listing(String path, byte[] startAfter) throws IOException {
    DirectoryListing listing = namenode.getListing(path, startAfter, false);
    if (listing == null) {
      throw new FileNotFoundException("File " + path + " does not exist.");
    }
    return listing;
  }

  private WebHdfsAnswer getXAttrs(WebHdfsRequest request) throws IOException {
    XAttrEncodingParam encoding = request.param(XAttrEncodingParam.class);
    if (encoding.getValue() == null) {
      throw new IllegalArgumentException("Required param " + XAttrEncodingParam.NAME
          + " for op: GETXATTRS is null or empty");
    }
    List<String> names = new ArrayList<>();
    for (XAttrNameParam name : request.params(XAttrNameParam.class)) {
      if (name.getXAttrName() != null) {
        names.add(name.getXAttrName());
      }
    }
    List<XAttr> xattrs = namenode.getXAttrs(request.path(), names.isEmpty() ? null
        : XAttrHelper.buildXAttrs(names));
    return WebHdfsAnswer.json(JsonUtil.toJsonString(xattrs, encoding.getEncoding()));
  }

  /** The trash directories that exist: the caller's, or every user's under the home prefix with allusers=true. */
  private WebHdfsAnswer trashRoots(WebHdfsRequest request) throws IOException {
    boolean allUsers = Boolean.parseBoolean(request.value("allusers"));
    List<FileStatus> roots = new ArrayList<>();
    List<String> homes = new ArrayList<>();
    if (allUsers) {
      String prefix = conf.get("dfs.user.home.dir.prefix", "/user");
      DirectoryListing users = namenode.getListing(prefix, HdfsFileStatus.EMPTY_NAME, false);
      for (HdfsFileStatus user : users == null ? new HdfsFileStatus[0] : users.getPartialListing()) {
        if (user.isDirectory()) {
          homes.add(prefix + "/" + user.getLocalName());
        }
      }
    } else {
      homes.add(home(request.user()));
    }
    for (String home : homes) {
      String trash = home + "/" + FileSystem.TRASH_PREFIX;
      HdfsFileStatus status = namenode.getFileInfo(trash);
      if (status != null && status.isDirectory()) {
        roots.add(status.makeQualified(fileSystemUri, new Path(trash)));
      }
    }
    return WebHdfsAnswer.json(JsonUtil.toJsonString(roots));
  }

  private String home(UserGroupInformation user) {
    return DFSUtilClient.getHomeDirectory(conf, user);
  }

  private static HdfsFileStatus existing(HdfsFileStatus status, WebHdfsRequest request) throws IOException {
    if (status == null) {
      throw new FileNotFoundException("File does not exist: " + request.path());
    }
    return status;
  }


  private static long offset(WebHdfsRequest request) {
    return request.param(OffsetParam.class).getValue();
  }

  private static long length(WebHdfsRequest request) {
    Long length = request.param(LengthParam.class).getValue();
    return length == null ? Long.MAX_VALUE : length;
  }
}

package io.canopy.namenode.http;

import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.web.JsonUtil;
import org.apache.hadoop.hdfs.web.resources.AccessTimeParam;
import org.apache.hadoop.hdfs.web.resources.AclPermissionParam;
import org.apache.hadoop.hdfs.web.resources.BlockSizeParam;
import org.apache.hadoop.hdfs.web.resources.BufferSizeParam;
import org.apache.hadoop.hdfs.web.resources.ConcatSourcesParam;
import org.apache.hadoop.hdfs.web.resources.CreateFlagParam;
import org.apache.hadoop.hdfs.web.resources.CreateParentParam;
import org.apache.hadoop.hdfs.web.resources.DeleteOpParam;
import org.apache.hadoop.hdfs.web.resources.DestinationParam;
import org.apache.hadoop.hdfs.web.resources.ECPolicyParam;
import org.apache.hadoop.hdfs.web.resources.GroupParam;
import org.apache.hadoop.hdfs.web.resources.ModificationTimeParam;
import org.apache.hadoop.hdfs.web.resources.NameSpaceQuotaParam;
import org.apache.hadoop.hdfs.web.resources.NewLengthParam;
import org.apache.hadoop.hdfs.web.resources.OldSnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.OverwriteParam;
import org.apache.hadoop.hdfs.web.resources.OwnerParam;
import org.apache.hadoop.hdfs.web.resources.PermissionParam;
import org.apache.hadoop.hdfs.web.resources.PostOpParam;
import org.apache.hadoop.hdfs.web.resources.PutOpParam;
import org.apache.hadoop.hdfs.web.resources.RecursiveParam;
import org.apache.hadoop.hdfs.web.resources.RenameOptionSetParam;
import org.apache.hadoop.hdfs.web.resources.ReplicationParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.StoragePolicyParam;
import org.apache.hadoop.hdfs.web.resources.StorageSpaceQuotaParam;
import org.apache.hadoop.hdfs.web.resources.StorageTypeParam;
import org.apache.hadoop.hdfs.web.resources.UnmaskedPermissionParam;
import org.apache.hadoop.hdfs.web.resources.XAttrNameParam;
import org.apache.hadoop.hdfs.web.resources.XAttrSetFlagParam;
import org.apache.hadoop.hdfs.web.resources.XAttrValueParam;

/** WebHDFS's PUT, POST and DELETE operations, each a call of the namenode's {@code ClientProtocol}. */
final class WebHdfsChanges {
  private final ClientProtocol namenode;
  private final Configuration conf;
  private final DatanodeRedirects redirects;
  private final Random random;

  WebHdfsChanges(ClientProtocol namenode, Configuration conf, DatanodeRedirects redirects, Random random) {
    this.namenode = namenode;
    this.conf = conf;
    this.redirects = redirects;
    this.random = random;
  }

  Map<PutOpParam.Op, WebHdfsHandler> puts() {
    Map<PutOpParam.Op, WebHdfsHandler> handlers = new EnumMap<>(PutOpParam.Op.class);
    handlers.put(PutOpParam.Op.CREATE, this::create);
    handlers.put(PutOpParam.Op.MKDIRS, request -> {
      PermissionParam permission = request.param(PermissionParam.class);
      UnmaskedPermissionParam unmasked = request.param(UnmaskedPermissionParam.class);
      FsPermission mode = unmasked.getValue() == null ? permission.getDirFsPermission()
          : FsCreateModes.create(permission.getDirFsPermission(), unmasked.getDirFsPermission());
      return bool(namenode.mkdirs(request.path(), mode, true));
    });
    handlers.put(PutOpParam.Op.CREATESYMLINK, request -> {
      String target = request.required("CREATESYMLINK", DestinationParam.class).getValue();
      namenode.createSymlink(target, request.path(), PermissionParam.getDefaultSymLinkFsPermission(),
          request.param(CreateParentParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.RENAME, this::rename);
    handlers.put(PutOpParam.Op.SETREPLICATION, request -> bool(namenode.setReplication(request.path(),
        request.param(ReplicationParam.class).getValue(conf))));
    handlers.put(PutOpParam.Op.SETOWNER, request -> {
      String owner = request.param(OwnerParam.class).getValue();
      String group = request.param(GroupParam.class).getValue();
      if (owner == null && group == null) {
        throw new IllegalArgumentException("Both owner and group are empty.");
      }
      namenode.setOwner(request.path(), owner, group);
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETPERMISSION, request -> {
      namenode.setPermission(request.path(),
          request.param(PermissionParam.class).getDirFsPermission());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETTIMES, request -> {
      namenode.setTimes(request.path(), request.param(ModificationTimeParam.class)
          .getValue(), request.param(AccessTimeParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.MODIFYACLENTRIES, request -> {
      namenode.modifyAclEntries(request.path(), acl(request, "MODIFYACLENTRIES").getAclPermission(true));
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.REMOVEACLENTRIES, request -> {
      namenode.removeAclEntries(request.path(), acl(request, "REMOVEACLENTRIES").getAclPermission(false));
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.REMOVEDEFAULTACL, request -> {
      namenode.removeDefaultAcl(request.path());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.REMOVEACL, request -> {
      namenode.removeAcl(request.path());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETACL, request -> {
      namenode.setAcl(request.path(), acl(request, "SETACL").getAclPermission(true));
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETXATTR, request -> {
      XAttrNameParam name = request.required("SETXATTR", XAttrNameParam.class);
      XAttrSetFlagParam flag = request.required("SETXATTR", XAttrSetFlagParam.class);
      namenode.setXAttr(request.path(), XAttrHelper.buildXAttr(name.getXAttrName(),
          request.param(XAttrValueParam.class).getXAttrValue()), flag.getFlag());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.REMOVEXATTR, request -> {
      namenode.removeXAttr(request.path(), XAttrHelper.buildXAttr(
          request.required("REMOVEXATTR", XAttrNameParam.class).getXAttrName()));
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETSTORAGEPOLICY, request -> {
      String policy = request.param(StoragePolicyParam.class).getValue();
      if (policy == null) {
        throw new IllegalArgumentException("Storage policy name is empty.");
      }
      namenode.setStoragePolicy(request.path(), policy);
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SATISFYSTORAGEPOLICY, request -> {
      namenode.satisfyStoragePolicy(request.path());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETQUOTA, request -> {
      namenode.setQuota(request.path(),
          request.required("SETQUOTA", NameSpaceQuotaParam.class).getValue(),
          request.required("SETQUOTA", StorageSpaceQuotaParam.class).getValue(), null);
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETQUOTABYSTORAGETYPE, request -> {
      long space = request.required("SETQUOTABYSTORAGETYPE", StorageSpaceQuotaParam.class).getValue();
      String type = request.required("SETQUOTABYSTORAGETYPE", StorageTypeParam.class)
          .getValue();
      namenode.setQuota(request.path(), HdfsConstants.QUOTA_DONT_SET, space, StorageType.parseStorageType(type));
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.SETECPOLICY, request -> {
      namenode.setErasureCodingPolicy(request.path(),
          request.required("SETECPOLICY", ECPolicyParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.ENABLEECPOLICY, request -> {
      namenode.enableErasureCodingPolicy(
          request.required("ENABLEECPOLICY", ECPolicyParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.DISABLEECPOLICY, request -> {
      namenode.disableErasureCodingPolicy(
          request.required("DISABLEECPOLICY", ECPolicyParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.ALLOWSNAPSHOT, request -> {
      namenode.allowSnapshot(request.path());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.DISALLOWSNAPSHOT, request -> {
      namenode.disallowSnapshot(request.path());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PutOpParam.Op.CREATESNAPSHOT, request -> WebHdfsAnswer.json(JsonUtil.toJsonString("Path",
        namenode.createSnapshot(request.path(), request.param(SnapshotNameParam.class)
            .getValue()))));
    handlers.put(PutOpParam.Op.RENAMESNAPSHOT, request -> {
      namenode.renameSnapshot(request.path(),
          request.required("RENAMESNAPSHOT", OldSnapshotNameParam.class).getValue(),
          request.required("RENAMESNAPSHOT", SnapshotNameParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    return handlers;
  }

  Map<PostOpParam.Op, WebHdfsHandler> posts() {
    Map<PostOpParam.Op, WebHdfsHandler> handlers = new EnumMap<>(PostOpParam.Op.class);
    handlers.put(PostOpParam.Op.APPEND, request -> WebHdfsAnswer.redirect(redirects.of(request,
        PostOpParam.Op.APPEND, -1, request.param(BufferSizeParam.class)), request.noRedirect()));
    handlers.put(PostOpParam.Op.CONCAT, request -> {
      namenode.concat(request.path(), request.required("CONCAT", ConcatSourcesParam.class)
          .getAbsolutePaths());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PostOpParam.Op.TRUNCATE, request -> {
      long newLength = request.required("TRUNCATE", NewLengthParam.class).getValue();
      // each request is a client of its own, as in HDFS
      return bool(namenode.truncate(request.path(), newLength, "DFSClient_" + random.nextLong()));
    });
    handlers.put(PostOpParam.Op.UNSETSTORAGEPOLICY, request -> {
      namenode.unsetStoragePolicy(request.path());
      return WebHdfsAnswer.empty();
    });
    handlers.put(PostOpParam.Op.UNSETECPOLICY, request -> {
      namenode.unsetErasureCodingPolicy(request.path());
      return WebHdfsAnswer.empty();
    });
    return handlers;
  }

  Map<DeleteOpParam.Op, WebHdfsHandler> deletes() {
    Map<DeleteOpParam.Op, WebHdfsHandler> handlers = new EnumMap<>(DeleteOpParam.Op.class);
    handlers.put(DeleteOpParam.Op.DELETE, request -> bool(namenode.delete(request.path(),
        request.param(RecursiveParam.class).getValue())));
    handlers.put(DeleteOpParam.Op.DELETESNAPSHOT, request -> {
      namenode.deleteSnapshot(request.path(),
          request.required("DELETESNAPSHOT", SnapshotNameParam.class).getValue());
      return WebHdfsAnswer.empty();
    });
    return handlers;
  }

  private WebHdfsAnswer create(WebHdfsRequest request) throws IOException {
    BlockSizeParam blockSize = request.param(BlockSizeParam.class);
    return WebHdfsAnswer.redirect(redirects.of(request, PutOpParam.Op.CREATE, -1,
        request.param(PermissionParam.class),
        request.param(UnmaskedPermissionParam.class),
        request.param(OverwriteParam.class),
        request.param(BufferSizeParam.class),
        request.param(ReplicationParam.class), blockSize,
        request.param(CreateParentParam.class),
        request.param(CreateFlagParam.class)), request.noRedirect());
  }

  private WebHdfsAnswer rename(WebHdfsRequest request) throws IOException {
    String destination = request.required("RENAME", DestinationParam.class).getValue();
    EnumSet<Options.Rename> options = request.param(RenameOptionSetParam.class)
        .getValue();
    if (options.isEmpty()) {
      return bool(namenode.rename(request.path(), destination));
    }
    namenode.rename2(request.path(), destination, options.toArray(new Options.Rename[0]));
    return WebHdfsAnswer.empty();
  }

  private static AclPermissionParam acl(WebHdfsRequest request, String operation) {
    return request.required(operation, AclPermissionParam.class);
  }

  private static WebHdfsAnswer bool(boolean value) {
    return WebHdfsAnswer.json(JsonUtil.toJsonString("boolean", value));
  }
}

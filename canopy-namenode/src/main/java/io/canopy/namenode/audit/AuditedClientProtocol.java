package io.canopy.namenode.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The namenode's {@link ClientProtocol} as clients reach it (RPC and WebHDFS), writing each namespace operation to the
 * {@link AuditLog} with HDFS's command names ({@code open}, {@code getfileinfo}, {@code listStatus}, {@code create},
 * {@code rename}, ...) once it succeeded (a rename or setReplication only when it answered true; a delete with its
 * answer as {@code allowed}, as HDFS writes them), or with {@code allowed=false} when it was refused for permissions.
 * The file's status ({@code perm}) is written for a create, from its answer; HDFS writes it after every change, which
 * here would cost a database read per call (design 022). Calls of
 * the write pipeline (addBlock, complete, renewLease...) are not namespace operations and are not audited, as in HDFS.
 * A call not audited, or any call while the audit logger is off, costs one reflective delegation.
 */
public final class AuditedClientProtocol implements InvocationHandler {
  /** How an audited call is written: its command, source and destination from its arguments. */
  private record Audited(Function<Object[], String> cmd, Function<Object[], String> src,
      Function<Object[], String> dst) {
    static Audited of(String cmd) {
      return new Audited(args -> cmd, args -> (String) args[0], args -> null);
    }

    static Audited withDestination(String cmd) {
      return new Audited(args -> cmd, args -> (String) args[0], args -> (String) args[1]);
    }
  }

  private static final Map<String, Audited> AUDITED = new HashMap<>();
  /** Calls HDFS writes to its audit log only when they answer true. */
  private static final Set<String> UNLOGGED_WHEN_FALSE = Set.of("rename", "setReplication");

  static {
    AUDITED.put("getBlockLocations", Audited.of("open"));
    AUDITED.put("getFileInfo", Audited.of("getfileinfo"));
    AUDITED.put("getFileLinkInfo", Audited.of("getfileinfo"));
    // HDFS's getLocatedFileInfo is an open when it asks for block tokens
    AUDITED.put("getLocatedFileInfo", new Audited(args -> Boolean.TRUE.equals(args[1]) ? "open" : "getfileinfo",
        args -> (String) args[0], args -> null));
    AUDITED.put("getListing", Audited.of("listStatus"));
    AUDITED.put("getContentSummary", Audited.of("contentSummary"));
    AUDITED.put("getQuotaUsage", Audited.of("quotaUsage"));
    AUDITED.put("create", Audited.of("create"));
    AUDITED.put("append", Audited.of("append"));
    AUDITED.put("mkdirs", Audited.of("mkdirs"));
    AUDITED.put("delete", Audited.of("delete"));
    AUDITED.put("truncate", Audited.of("truncate"));
    AUDITED.put("recoverLease", Audited.of("recoverLease"));
    AUDITED.put("rename", Audited.withDestination("rename"));
    AUDITED.put("rename2", new Audited(
        args -> "rename (options=" + Arrays.toString((Object[]) args[2]) + ")",
        args -> (String) args[0], args -> (String) args[1]));
    AUDITED.put("concat", new Audited(args -> "concat", args -> Arrays.toString((String[]) args[1]),
        args -> (String) args[0]));
    // createSymlink(target, link, ...): HDFS writes the link as the source and its target as the destination
    AUDITED.put("createSymlink", new Audited(args -> "createSymlink", args -> (String) args[1],
        args -> (String) args[0]));
    AUDITED.put("setPermission", Audited.of("setPermission"));
    AUDITED.put("setOwner", Audited.of("setOwner"));
    AUDITED.put("setReplication", Audited.of("setReplication"));
    AUDITED.put("setTimes", Audited.of("setTimes"));
    AUDITED.put("setQuota", new Audited(args -> quotaCommand((Long) args[1], (Long) args[2]),
        args -> (String) args[0], args -> null));
    AUDITED.put("setStoragePolicy", Audited.of("setStoragePolicy"));
    AUDITED.put("unsetStoragePolicy", Audited.of("unsetStoragePolicy"));
    AUDITED.put("getStoragePolicy", Audited.of("getStoragePolicy"));
    AUDITED.put("satisfyStoragePolicy", Audited.of("satisfyStoragePolicy"));
    AUDITED.put("checkAccess", Audited.of("checkAccess"));
    for (String acl : new String[] {"modifyAclEntries", "removeAclEntries", "removeDefaultAcl", "removeAcl", "setAcl",
        "getAclStatus", "setXAttr", "getXAttrs", "listXAttrs", "removeXAttr"}) {
      AUDITED.put(acl, Audited.of(acl));
    }
  }

  /** Set by an HTTP front end for the call it makes on this thread: the client's address and the protocol. */
  private static final ThreadLocal<String[]> EXTERNAL_CALLER = new ThreadLocal<>();

  private final ClientProtocol delegate;
  private final AuditLog log;

  private AuditedClientProtocol(ClientProtocol delegate, AuditLog log) {
    this.delegate = delegate;
    this.log = log;
  }

  /** {@code delegate}, auditing the namespace operations clients ask of it into {@code log}. */
  public static ClientProtocol wrap(ClientProtocol delegate, AuditLog log) {
    return (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
        new Class<?>[] {ClientProtocol.class}, new AuditedClientProtocol(delegate, log));
  }

  /** A call that arrives other than by RPC (WebHDFS): who made it, until {@link #externalCallEnded}. */
  public static void externalCall(String clientAddress, String protocol) {
    EXTERNAL_CALLER.set(new String[] {clientAddress, protocol});
  }

  public static void externalCallEnded() {
    EXTERNAL_CALLER.remove();
  }

  /** HDFS's command for a setQuota call ({@code FSNamesystem.getQuotaCommand}). */
  static String quotaCommand(long namespaceQuota, long storageSpaceQuota) {
    if (namespaceQuota == HdfsConstants.QUOTA_RESET && storageSpaceQuota == HdfsConstants.QUOTA_DONT_SET) {
      return "clearQuota";
    }
    if (namespaceQuota == HdfsConstants.QUOTA_DONT_SET && storageSpaceQuota == HdfsConstants.QUOTA_RESET) {
      return "clearSpaceQuota";
    }
    return storageSpaceQuota == HdfsConstants.QUOTA_DONT_SET ? "setQuota" : "setSpaceQuota";
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return method.invoke(this, args);
    }
    Audited audited = AUDITED.get(method.getName());
    if (audited == null || !log.enabled()) {
      return call(method, args);
    }
    Object result;
    try {
      result = call(method, args);
    } catch (AccessControlException refused) {
      write(false, audited, args, null);
      throw refused;
    }
    if (Boolean.FALSE.equals(result) && UNLOGGED_WHEN_FALSE.contains(method.getName())) {
      return result; // HDFS writes a rename or setReplication only when it happened
    }
    // HDFS writes a delete's answer as its allowed field
    write(!method.getName().equals("delete") || !Boolean.FALSE.equals(result), audited, args,
        method.getName().equals("create") ? (HdfsFileStatus) result : null);
    return result;
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private void write(boolean allowed, Audited audited, Object[] args, HdfsFileStatus status) {
    String[] external = EXTERNAL_CALLER.get();
    String ip;
    String proto;
    if (Server.isRpcInvocation()) {
      InetAddress address = Server.getRemoteIp();
      ip = address == null ? null : address.getHostAddress();
      proto = Server.getProtocol();
    } else {
      ip = external == null ? null : external[0];
      proto = external == null ? null : external[1];
    }
    log.log(new AuditLog.Event(allowed, caller(), ip, audited.cmd().apply(args), audited.src().apply(args),
        audited.dst().apply(args), status == null ? null : status.getOwner(),
        status == null ? null : status.getGroup(), status == null ? null : status.getPermission(), proto));
  }

  /** The caller as HDFS writes it: {@code UserGroupInformation.toString()}, e.g. {@code alice (auth:SIMPLE)}. */
  private static String caller() {
    UserGroupInformation remote = Server.getRemoteUser();
    try {
      return String.valueOf(remote != null ? remote : UserGroupInformation.getCurrentUser());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot determine the calling user", e);
    }
  }
}

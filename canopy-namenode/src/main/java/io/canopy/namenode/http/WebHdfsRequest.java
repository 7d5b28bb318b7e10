package io.canopy.namenode.http;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.servlet.http.HttpServletRequest;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.hdfs.web.resources.DoAsParam;
import org.apache.hadoop.hdfs.web.resources.NoRedirectParam;
import org.apache.hadoop.hdfs.web.resources.Param;
import org.apache.hadoop.hdfs.web.resources.UserParam;
import org.apache.hadoop.http.HtmlQuoting;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * One WebHDFS request as the namenode reads it: the path under {@code /webhdfs/v1}, the query's parameters by name
 * (names compared without case, as HDFS does), the calling user as HDFS determines it with simple authentication
 * ({@code user.name}, else {@code hadoop.http.staticuser.user}; {@code doas} for a proxy user allowed by
 * {@code hadoop.proxyuser.*}) and the caller's address.
 */
final class WebHdfsRequest {
  private final String path;
  private final Map<String, List<String>> parameters;
  private final UserGroupInformation user;
  private final String remoteAddress;

  private WebHdfsRequest(String path, Map<String, List<String>> parameters, UserGroupInformation user,
      String remoteAddress) {
    this.path = path;
    this.parameters = parameters;
    this.user = user;
    this.remoteAddress = remoteAddress;
  }

  /**
   * Reads {@code request}; fails as HDFS does when the user cannot be determined or a proxy user is refused. Values
   * are read as sent: HttpServer2's filter escapes HTML characters in every parameter it hands out, which is undone
   * here (HDFS's resources read the query unescaped). The user is taken as HDFS's WebHDFS takes it: {@code user.name}
   * (checked against HDFS's user-name pattern) or the static web user, and {@code doas}; never the old {@code ugi}
   * parameter, which HDFS's WebHDFS ignores. With Kerberos: the SPNEGO user or a verified delegation token's
   * ({@link HttpCallers}).
   */
  static WebHdfsRequest of(HttpServletRequest request, HttpCallers callers) throws IOException {
    String pathInfo = request.getPathInfo();
    String path = pathInfo == null || pathInfo.isEmpty() ? "/" : pathInfo;
    Map<String, List<String>> parameters = new HashMap<>();
    for (Map.Entry<String, String[]> entry : request.getParameterMap().entrySet()) {
      List<String> values = parameters.computeIfAbsent(
          HtmlQuoting.unquoteHtmlChars(entry.getKey()).toLowerCase(Locale.ROOT), name -> new ArrayList<>());
      for (String value : entry.getValue()) {
        values.add(HtmlQuoting.unquoteHtmlChars(value));
      }
    }
    WebHdfsRequest parsed = new WebHdfsRequest(path, parameters, null, JspHelper.getRemoteAddr(request));
    parsed.param(UserParam.class); // HDFS's pattern for user names, refused with its message
    parsed.param(DoAsParam.class);
    UserGroupInformation user = callers.of(request);
    return new WebHdfsRequest(path, parameters, user, parsed.remoteAddress);
  }

  /** The file-system path the request names: {@code /} for {@code /webhdfs/v1} itself. */
  String path() {
    return path;
  }

  UserGroupInformation user() {
    return user;
  }

  String remoteAddress() {
    return remoteAddress;
  }

  /** The parameter's first value, or null when the request has none. */
  String value(String name) {
    List<String> values = parameters.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** Every value of a repeated parameter (e.g. {@code xattr.name}), in request order. */
  List<String> values(String name) {
    return parameters.getOrDefault(name.toLowerCase(Locale.ROOT), Collections.emptyList());
  }

  /**
   * The parameter of Hadoop's class {@code type} (its {@code NAME}), parsed by that class from the request's value or,
   * when the request has none, from the class's {@code DEFAULT}, as HDFS's resources declare them; a bad value is
   * refused with HDFS's message.
   */
  <P extends Param<?, ?>> P param(Class<P> type) {
    ParamType<P> spec = ParamType.of(type);
    String value = value(spec.name());
    return parse(spec.name(), value == null ? spec.defaultValue() : value, spec::create);
  }

  /** Every value of the repeated parameter of class {@code type}, each parsed by it. */
  <P extends Param<?, ?>> List<P> params(Class<P> type) {
    ParamType<P> spec = ParamType.of(type);
    List<P> parsed = new ArrayList<>();
    for (String value : values(spec.name())) {
      parsed.add(parse(spec.name(), value, spec::create));
    }
    return parsed;
  }

  /** {@code value} parsed as parameter {@code name}, a bad value refused with HDFS's message. */
  static <P extends Param<?, ?>> P parse(String name, String value, Function<String, P> parse) {
    try {
      return parse.apply(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid value for webhdfs parameter \"" + name + "\": " + e.getMessage(),
          e);
    }
  }

  /** Whether the client asked for the datanode's address as JSON rather than a redirect ({@code noredirect}). */
  boolean noRedirect() {
    return Boolean.TRUE.equals(param(NoRedirectParam.class).getValue());
  }

  /** A parameter the operation cannot do without, refused as HDFS does when it is missing. */
  <P extends Param<?, ?>> P required(String operation, Class<P> type) {
    P param = param(type);
    if (param.getValue() == null || param.getValueString() == null || param.getValueString().isEmpty()) {
      throw new IllegalArgumentException("Required param " + param.getName() + " for op: " + operation
          + " is null or empty");
    }
    return param;
  }
}

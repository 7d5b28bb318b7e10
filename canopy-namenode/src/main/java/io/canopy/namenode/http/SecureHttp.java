package io.canopy.namenode.http;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * The HTTP calls that act as a user (WebHDFS, fsck) in a Kerberos cluster: HDFS authenticates them with SPNEGO or a
 * delegation token it verifies, which Canopy's namenode does not serve yet, so they are refused rather than believed
 * (a {@code user.name} parameter, or an unverified token, would let anyone act as anyone). The status page and the
 * metrics, which act as no user, stay served.
 */
final class SecureHttp {
  private SecureHttp() {
  }

  static void refuseWithKerberos(Configuration conf, String what) throws AccessControlException {
    if (SecurityUtil.getAuthenticationMethod(conf) != AuthenticationMethod.SIMPLE) {
      throw new AccessControlException(what + " is not served by a Canopy namenode with "
          + "hadoop.security.authentication=kerberos: it needs SPNEGO, which Canopy does not offer yet; use the RPC "
          + "client (hdfs://) with a Kerberos ticket or a delegation token");
    }
  }
}

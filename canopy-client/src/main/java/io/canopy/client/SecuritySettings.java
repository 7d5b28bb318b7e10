package io.canopy.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop security settings Canopy honours: HDFS's "simple" authentication, and block access tokens
 * ({@code dfs.block.access.token.enable}, design 022). A setting that asks for protection Canopy does not give
 * (Kerberos, service-level authorization, RPC integrity or privacy, encrypted or SASL-protected data transfer) is
 * refused where a process starts (namenode, datanode,
 * {@code canopy up}), rather than accepted and then not honoured: with Kerberos a namenode would start and then
 * accept no client; with the others the cluster would run unprotected while its operator believes otherwise.
 */
public final class SecuritySettings {
  /** A configuration asks for security Canopy does not support; the message names each key and what to do. */
  public static final class UnsupportedSecurityException extends IOException {
    UnsupportedSecurityException(String message) {
      super(message);
    }
  }

  /** One refused setting: its key, which values are refused, and why. */
  private record Rule(String key, Predicate<String> refused, String why) {
  }

  private static final List<Rule> RULES = List.of(
      new Rule("hadoop.security.authentication", value -> !value.equals("simple"),
          "Canopy supports only HDFS's simple authentication; Kerberos is not supported yet"),
      new Rule("hadoop.security.authorization", Boolean::parseBoolean,
          "service-level authorization (hadoop-policy.xml) is not supported"),
      new Rule("hadoop.rpc.protection", value -> !value.equals("authentication"),
          "RPC integrity and privacy need SASL, which simple authentication never negotiates: calls would travel "
              + "unprotected"),
      new Rule("dfs.encrypt.data.transfer", Boolean::parseBoolean,
          "encrypting data transfer needs keys from the namenode, which Canopy does not issue"),
      new Rule("dfs.data.transfer.protection", value -> !value.isEmpty(),
          "SASL on data transfer needs Kerberos and block access tokens"));

  private SecuritySettings() {
  }

  /** Throws when {@code conf} asks for security Canopy does not support; {@code who} names what is starting. */
  public static void checkSupported(Configuration conf, String who) throws UnsupportedSecurityException {
    List<String> problems = new ArrayList<>();
    for (Rule rule : RULES) {
      String value = conf.getTrimmed(rule.key());
      if (value != null) {
        problem(rule.key(), value).ifPresent(problems::add);
      }
    }
    if (!problems.isEmpty()) {
      throw new UnsupportedSecurityException("Refusing to start " + who + ": " + String.join("; ", problems)
          + ". " + explanation());
    }
  }

  /** Why {@code key=value} is refused, or empty when Canopy runs with it. */
  public static Optional<String> problem(String key, String value) {
    String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (Rule rule : RULES) {
      if (rule.key().equals(key) && rule.refused().test(normalized)) {
        return Optional.of(key + "=" + value.trim() + " is not supported (" + rule.why() + ")");
      }
    }
    return Optional.empty();
  }

  /** What Canopy's security is, and what to do about a refused setting. */
  public static String explanation() {
    return "Canopy authenticates as HDFS's \"simple\" mode does (a client states its user name and the namenode "
        + "believes it); with dfs.block.access.token.enable=true its datanodes serve blocks only to holders of a "
        + "token the namenode issued. Run it only where every host and user that can reach it is trusted. Remove the "
        + "setting to start (canopy up: --clear-settings, or -D KEY=VALUE with its default)";
  }
}

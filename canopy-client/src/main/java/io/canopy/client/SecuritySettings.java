package io.canopy.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop security settings Canopy honours: HDFS's "simple" authentication or Kerberos (SASL on RPC, with
 * {@code hadoop.rpc.protection} authentication, integrity or privacy, delegation tokens shared through the database;
 * design 023), block access tokens ({@code dfs.block.access.token.enable}, design 022), and with Kerberos SASL on data
 * transfer ({@code dfs.data.transfer.protection}), and encrypted data transfer ({@code dfs.encrypt.data.transfer},
 * keys derived from the block keys; the namenode's small-file endpoint does the handshake too). A setting that asks for
 * protection Canopy does not give (service-level authorization) or that cannot hold with the others (privacy without
 * Kerberos; Kerberos or encrypted data transfer without block tokens, which HDFS's processes refuse too) is
 * refused where a process starts (namenode, datanode, {@code canopy up}), rather than accepted and then not honoured.
 */
public final class SecuritySettings {
  /** A configuration asks for security Canopy does not support; the message names each key and what to do. */
  public static final class UnsupportedSecurityException extends IOException {
    UnsupportedSecurityException(String message) {
      super(message);
    }
  }

  private static final String AUTHENTICATION = "hadoop.security.authentication";
  private static final String BLOCK_TOKENS = "dfs.block.access.token.enable";

  /**
   * One refused setting: its key, which values are refused whatever else is set, which are refused given the rest of
   * the configuration, and why.
   */
  private record Rule(String key, Predicate<String> refused, BiPredicate<String, Configuration> refusedWith,
      String why) {
  }

  private static boolean kerberos(Configuration conf) {
    return conf.getTrimmed(AUTHENTICATION, "simple").toLowerCase(Locale.ROOT).equals("kerberos");
  }

  private static final List<Rule> RULES = List.of(
      new Rule(AUTHENTICATION, value -> !value.equals("simple") && !value.equals("kerberos"),
          (value, conf) -> value.equals("kerberos") && !conf.getBoolean(BLOCK_TOKENS, false),
          "Canopy authenticates with simple or kerberos; kerberos also needs " + BLOCK_TOKENS + "=true (datanodes "
              + "would serve blocks to anyone, and a stock DataNode refuses to start)"),
      new Rule("hadoop.security.authorization", Boolean::parseBoolean, (value, conf) -> false,
          "service-level authorization (hadoop-policy.xml) is not supported"),
      new Rule("hadoop.rpc.protection", value -> false,
          (value, conf) -> !value.equals("authentication") && !kerberos(conf),
          "RPC integrity and privacy are negotiated by SASL, which needs " + AUTHENTICATION + "=kerberos: with "
              + "simple authentication calls would travel unprotected"),
      new Rule("dfs.encrypt.data.transfer", value -> false,
          (value, conf) -> Boolean.parseBoolean(value) && !conf.getBoolean(BLOCK_TOKENS, false),
          "encrypting data transfer derives its keys from the block keys: it needs " + BLOCK_TOKENS + "=true"),
      new Rule("dfs.data.transfer.protection", value -> false, (value, conf) -> !value.isEmpty() && !kerberos(conf),
          "SASL on data transfer needs " + AUTHENTICATION + "=kerberos and block access tokens"));

  private SecuritySettings() {
  }

  /** Throws when {@code conf} asks for security Canopy does not support; {@code who} names what is starting. */
  public static void checkSupported(Configuration conf, String who) throws UnsupportedSecurityException {
    List<String> problems = new ArrayList<>();
    for (Rule rule : RULES) {
      String value = conf.getTrimmed(rule.key());
      if (value != null) {
        Optional<String> problem = problem(rule.key(), value);
        String normalized = value.toLowerCase(Locale.ROOT);
        if (problem.isEmpty() && rule.refusedWith().test(normalized, conf)) {
          problem = Optional.of(rule.key() + "=" + value + " is not supported here (" + rule.why() + ")");
        }
        problem.ifPresent(problems::add);
      }
    }
    if (!problems.isEmpty()) {
      throw new UnsupportedSecurityException("Refusing to start " + who + ": " + String.join("; ", problems)
          + ". " + explanation());
    }
  }

  /** Why {@code key=value} is refused whatever else is set, or empty when Canopy may run with it. */
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
    return "Canopy authenticates as HDFS does: \"simple\" (a client states its user name and the namenode believes "
        + "it: run it only where every host and user that can reach it is trusted) or kerberos (SASL, with "
        + "hadoop.rpc.protection and delegation tokens); with dfs.block.access.token.enable=true its datanodes serve "
        + "blocks only to holders of a token the namenode issued. Remove the setting to start (canopy up: "
        + "--clear-settings, or -D KEY=VALUE with its default)";
  }
}

package io.canopy.namenode.topology;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.CachedDNSToSwitchMapping;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves datanodes' and clients' network locations with Hadoop's topology mapping, configured as for HDFS
 * ({@code net.topology.node.switch.mapping.impl}, by default {@code ScriptBasedMapping} with
 * {@code net.topology.script.file.name}; {@code TableMapping} with {@code net.topology.table.file.name}). As HDFS
 * does, a caching mapping (the script and table ones) is asked for the IP address and another one for the host name;
 * when the first answer is the default rack, Canopy also asks for the other name, so a table may name hosts either way
 * ({@code canopy up --azs} places datanodes that all listen on 127.0.0.1 by host name, with {@link NameTableMapping},
 * which looks names up as given). A location that is
 * not of the form {@code /zone/rack} or {@code /rack} is logged and taken as the default rack.
 */
public final class TopologyResolver {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyResolver.class);

  private final DNSToSwitchMapping mapping;

  public TopologyResolver(DNSToSwitchMapping mapping) {
    this.mapping = mapping;
  }

  /** The mapping the configuration names, as HDFS's namenode builds it. */
  public static TopologyResolver fromConf(Configuration conf) {
    return new TopologyResolver(ReflectionUtils.newInstance(conf.getClass(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, ScriptBasedMapping.class,
        DNSToSwitchMapping.class), conf));
  }

  /** The network location of a node with this IP address and host name (either may be null). */
  public String resolve(String ipAddress, String hostName) {
    boolean byAddress = mapping instanceof CachedDNSToSwitchMapping;
    String first = byAddress ? ipAddress : hostName;
    String second = byAddress ? hostName : ipAddress;
    String location = resolveOne(first);
    if (NetworkLocation.DEFAULT_RACK.equals(location) && second != null && !second.equals(first)) {
      location = resolveOne(second);
    }
    return location;
  }

  /** {@link #resolve} parsed. */
  public NetworkLocation locate(String ipAddress, String hostName) {
    return NetworkLocation.parseOrUnknown(resolve(ipAddress, hostName));
  }

  private String resolveOne(String name) {
    if (name == null || name.isEmpty()) {
      return NetworkLocation.DEFAULT_RACK;
    }
    List<String> answer;
    try {
      answer = mapping.resolve(List.of(name));
    } catch (RuntimeException e) {
      LOG.error("The topology mapping failed for {}; using {}: {}", name, NetworkLocation.DEFAULT_RACK, e.toString());
      return NetworkLocation.DEFAULT_RACK;
    }
    String location = answer == null || answer.isEmpty() ? null : answer.get(0);
    try {
      return NetworkLocation.parse(location).rack(); // normalized: a trailing '/' dropped
    } catch (IllegalArgumentException e) {
      LOG.error("The topology mapping placed {} at '{}', which is not a network location; using {}", name, location,
          NetworkLocation.DEFAULT_RACK);
      return NetworkLocation.DEFAULT_RACK;
    }
  }
}

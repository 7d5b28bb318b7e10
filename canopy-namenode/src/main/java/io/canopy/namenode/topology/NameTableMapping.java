package io.canopy.namenode.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topology table read as Hadoop's {@code TableMapping} reads it ({@code net.topology.table.file.name}: one
 * {@code name location} pair per line, {@code #} comments), looked up by the names exactly as given. Hadoop's own
 * mapping first resolves every name through DNS and looks up the address it gets, so a host name that resolves to
 * 127.0.0.1 (as {@code *.localhost} names do where systemd-resolved answers) is looked up as 127.0.0.1: that is right
 * for real hosts and wrong for {@code canopy up --azs}, whose datanodes all listen on 127.0.0.1 and are told apart by
 * their host names alone (design 019). Not a caching mapping, so {@link TopologyResolver} asks it for the host name
 * first, as HDFS asks such mappings. Unknown names, and every name while the file is unreadable (logged once, read
 * again at each lookup), are on the default rack. The table is read on first use and again on
 * {@link #reloadCachedMappings()}.
 */
public final class NameTableMapping implements DNSToSwitchMapping, Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(NameTableMapping.class);

  private Configuration conf;
  /** Name to location; null until loaded, and again after a load that could not read the file (guarded by this). */
  private Map<String, String> table;
  /** Whether a failed load was logged already (guarded by this): a missing file is read again, quietly. */
  private boolean failureLogged;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public synchronized List<String> resolve(List<String> names) {
    Map<String, String> current = table == null ? load() : table;
    List<String> locations = new ArrayList<>(names.size());
    for (String name : names) {
      locations.add(current.getOrDefault(name, NetworkLocation.DEFAULT_RACK));
    }
    return locations;
  }

  @Override
  public synchronized void reloadCachedMappings() {
    table = null;
    load();
  }

  @Override
  public void reloadCachedMappings(List<String> names) {
    reloadCachedMappings();
  }

  /** Reads the table; keeps it when readable, so that an unreadable one is tried again on the next lookup. */
  private Map<String, String> load() {
    String key = CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY;
    String file = conf == null ? null : conf.getTrimmed(key);
    Map<String, String> loaded = new HashMap<>();
    if (file == null || file.isEmpty()) {
      LOG.warn("{} is not set: every node is on {}", key, NetworkLocation.DEFAULT_RACK);
      table = loaded;
      return loaded;
    }
    try {
      for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
        String content = line.contains("#") ? line.substring(0, line.indexOf('#')) : line;
        String[] fields = content.trim().split("\\s+");
        if (fields.length == 2) {
          loaded.put(fields[0], fields[1]);
        } else if (!content.isBlank()) {
          LOG.warn("Topology table {}: ignoring the line '{}' (not 'name location')", file, line);
        }
      }
    } catch (IOException e) {
      if (!failureLogged) {
        LOG.warn("Cannot read the topology table {}: nodes are on {} until it can be read: {}", file,
            NetworkLocation.DEFAULT_RACK, e.toString());
        failureLogged = true;
      }
      return loaded;
    }
    table = loaded;
    failureLogged = false;
    return loaded;
  }
}

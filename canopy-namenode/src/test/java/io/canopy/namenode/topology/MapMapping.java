package io.canopy.namenode.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.net.DNSToSwitchMapping;

/** A topology mapping of a fixed map, not caching (so it is asked for host names, as HDFS asks such mappings). */
final class MapMapping implements DNSToSwitchMapping {
  private final Map<String, String> locations;

  MapMapping(Map<String, String> locations) {
    this.locations = locations;
  }

  @Override
  public List<String> resolve(List<String> names) {
    List<String> answer = new ArrayList<>();
    names.forEach(name -> answer.add(locations.getOrDefault(name, NetworkLocation.DEFAULT_RACK)));
    return answer;
  }

  @Override
  public void reloadCachedMappings() {
  }

  @Override
  public void reloadCachedMappings(List<String> names) {
  }
}

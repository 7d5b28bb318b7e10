package io.canopy.bench;

import java.util.List;

/**
 * Where a benchmarked Canopy cluster keeps its metadata: the embedded PostgreSQL, or {@code nodes} Apache Ignite 3
 * nodes started by {@code canopy up --engine ignite --db-nodes N} (design 020).
 *
 * @param name {@code postgres} or {@code ignite}, as {@code canopy up --engine} takes it
 * @param nodes database nodes (1 for PostgreSQL)
 */
public record MetadataEngine(String name, int nodes) {
  /** Most Ignite nodes a benchmark starts on this machine ({@code canopy up}'s own bound is higher). */
  static final int MAX_IGNITE_NODES = 5;
  public static final MetadataEngine POSTGRES = new MetadataEngine("postgres", 1);

  public MetadataEngine {
    if (!name.equals("postgres") && !name.equals("ignite")) {
      throw new IllegalArgumentException("engine must be postgres or ignite, got '" + name + "'");
    }
    if (name.equals("postgres") ? nodes != 1 : nodes < 1 || nodes > MAX_IGNITE_NODES) {
      throw new IllegalArgumentException(name + " with " + nodes + " node(s): PostgreSQL runs as 1, Ignite as 1 to "
          + MAX_IGNITE_NODES);
    }
  }

  public static MetadataEngine ignite(int nodes) {
    return new MetadataEngine("ignite", nodes);
  }

  /**
   * How long {@code canopy up} may wait for each part of an Ignite cluster: three nodes, their format and the first
   * datanode registrations took 97 s of the default 120 on this machine, and one start missed it (design 020).
   */
  static final int IGNITE_UP_TIMEOUT_SECONDS = 300;

  /** The options {@code canopy up} gets for this engine (none for the default, PostgreSQL). */
  List<String> upArguments() {
    return name.equals("postgres") ? List.of() : List.of("--engine", name, "--db-nodes", Integer.toString(nodes),
        "--timeout", Integer.toString(IGNITE_UP_TIMEOUT_SECONDS));
  }

  /** How the report names it: "PostgreSQL", "Ignite, 3 nodes". */
  String label() {
    return name.equals("postgres") ? "PostgreSQL" : "Ignite, " + nodes + (nodes == 1 ? " node" : " nodes");
  }
}

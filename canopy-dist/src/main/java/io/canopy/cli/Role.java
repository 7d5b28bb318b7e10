package io.canopy.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One process of a cluster: the local Kerberos KDC of a secure cluster ({@code kdc}, design 023), the embedded
 * PostgreSQL database ({@code db}), database node K of a distributed engine ({@code db-K}, design 020), namenode I or
 * datanode I.
 */
public record Role(Kind kind, int index) {
  /**
   * The kinds of process, in start order; each with its main class and default heap. A namenode's heap also sizes
   * the subtrees it holds in one transaction (canopy.namenode.subtree.max-rows, one row per KB): 3 GB admits every
   * recursive delete that worked before that bound existed (design 011).
   */
  public enum Kind {
    /** The KDC of {@code canopy up --secure} (Hadoop's MiniKdc), started before everything else. */
    KDC("kdc", "io.canopy.cli.LocalKdcMain", 128, 0, "CANOPY_KDC_OPTS"),
    DATABASE("db", "io.canopy.metadata.postgres.EmbeddedPostgresMain", 128, 0, "CANOPY_DB_OPTS"),
    /** One Apache Ignite 3 server node (its page memory is off the heap: design 020). */
    DB_NODE("db", "io.canopy.ignite.node.IgniteNodeMain", 1024, 0, "CANOPY_DB_OPTS"),
    NAMENODE("namenode", "io.canopy.namenode.NameNodeMain", 3072, 0, "CANOPY_NAMENODE_OPTS"),
    /** All the datanodes of a cluster share one process (design 014): 384 MB for one, 128 MB more per other. */
    DATANODE("datanode", "io.canopy.datanode.DataNodeMain", 256, 128, "CANOPY_DATANODE_OPTS");

    /** The largest heap {@link #heapOption} gives, however many roles the process runs. */
    static final int MAX_HEAP_MB = 4096;

    private final String prefix;
    private final String mainClass;
    private final int heapBaseMb;
    private final int heapPerRoleMb;
    private final String optionsVariable;

    Kind(String prefix, String mainClass, int heapBaseMb, int heapPerRoleMb, String optionsVariable) {
      this.prefix = prefix;
      this.mainClass = mainClass;
      this.heapBaseMb = heapBaseMb;
      this.heapPerRoleMb = heapPerRoleMb;
      this.optionsVariable = optionsVariable;
    }

    public String mainClass() {
      return mainClass;
    }

    /** The heap option of a process running {@code roles} roles of this kind. */
    public String heapOption(int roles) {
      if (roles < 1) {
        throw new IllegalArgumentException("a process runs at least one role, not " + roles);
      }
      long megabytes = Math.min(MAX_HEAP_MB, heapBaseMb + (long) heapPerRoleMb * roles);
      return megabytes % 1024 == 0 ? "-Xmx" + megabytes / 1024 + "g" : "-Xmx" + megabytes + "m";
    }

    /** Whether a cluster runs at most one process of this kind, named without an index. */
    public boolean single() {
      return this == DATABASE || this == KDC;
    }

    /** Whether processes of this kind hold the metadata (the embedded PostgreSQL or a database node). */
    public boolean database() {
      return this == DATABASE || this == DB_NODE;
    }

    /** Environment variable whose words are appended to this kind's JVM options. */
    public String optionsVariable() {
      return optionsVariable;
    }
  }

  public static final Role DATABASE = new Role(Kind.DATABASE, 0);
  public static final Role KDC = new Role(Kind.KDC, 0);

  public Role {
    if (kind.single() ? index != 0 : index < 1) {
      throw new IllegalArgumentException("bad index " + index + " for " + kind);
    }
  }

  public static Role namenode(int index) {
    return new Role(Kind.NAMENODE, index);
  }

  /** Database node K of a cluster on a distributed engine (canopy up --engine ignite --db-nodes N). */
  public static Role databaseNode(int index) {
    return new Role(Kind.DB_NODE, index);
  }

  public static Role datanode(int index) {
    return new Role(Kind.DATANODE, index);
  }

  /** {@code db}, {@code db-K}, {@code namenode-I} or {@code datanode-I}: file names and what users read. */
  public String name() {
    return kind.single() ? kind.prefix : kind.prefix + "-" + index;
  }

  /** The role a name (as produced by {@link #name()}) stands for. */
  public static Optional<Role> parse(String name) {
    if (name.equals(Kind.DATABASE.prefix)) {
      return Optional.of(DATABASE);
    }
    if (name.equals(Kind.KDC.prefix)) {
      return Optional.of(KDC);
    }
    for (Kind kind : new Kind[] {Kind.DB_NODE, Kind.NAMENODE, Kind.DATANODE}) {
      if (name.startsWith(kind.prefix + "-")) {
        try {
          int index = Integer.parseInt(name.substring(kind.prefix.length() + 1));
          return index >= 1 ? Optional.of(new Role(kind, index)) : Optional.empty();
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Every role of a cluster in start order: the database (unless the metadata lives in an external PostgreSQL), the
   * namenodes, the datanodes.
   */
  public static List<Role> all(int namenodes, int datanodes, boolean embeddedDatabase) {
    return all(embeddedDatabase ? List.of(DATABASE) : List.of(), namenodes, datanodes);
  }

  /** Every role of a cluster in start order: {@code databases} (none when external), the namenodes, the datanodes. */
  public static List<Role> all(List<Role> databases, int namenodes, int datanodes) {
    List<Role> roles = new ArrayList<>(databases);
    for (int i = 1; i <= namenodes; i++) {
      roles.add(namenode(i));
    }
    for (int i = 1; i <= datanodes; i++) {
      roles.add(datanode(i));
    }
    return roles;
  }

  /** "1 namenode", "3 datanodes": a count of processes of one kind, for messages. */
  public static String count(int number, Kind kind) {
    String noun = switch (kind) {
      case DATABASE -> "database";
      case DB_NODE -> "database node";
      case KDC -> "KDC";
      default -> kind.prefix;
    };
    return number + " " + noun + (number == 1 ? "" : "s");
  }

  @Override
  public String toString() {
    return name();
  }

  /** Roles as a reader sees them: {@code datanode-1, datanode-2}. */
  public static String names(List<Role> roles) {
    return String.join(", ", roles.stream().map(Role::toString).toList());
  }
}

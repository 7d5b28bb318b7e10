package io.canopy.metadata.ignite;

import java.util.List;

/**
 * Canopy's tables on Ignite 3 (design 020): one distribution zone, every primary key sorted with the DAL's partition
 * key first and colocated by it, so that a directory's children or a file's rows are one partition's range.
 * {@code docs/schema.md} describes the columns; the PostgreSQL schema is the reference.
 */
final class IgniteSchema {
  static final String VARIABLES = "CANOPY_VARIABLES";
  static final String INODES = "CANOPY_INODES";
  /** Inode id to its key: a unique key that is a primary key of its own, colocated by the id (a read by id is two
   *  primary-key reads, never a scan of every partition). */
  static final String INODE_IDS = "CANOPY_INODE_IDS";

  /** Tables in the order a forced format empties them. */
  static final List<String> TABLES = List.of(INODE_IDS, INODES, VARIABLES);

  private IgniteSchema() {
  }

  /** The statements that make the zone and the tables when absent. */
  static String script(String zone, int replicas, int partitions) {
    return "CREATE ZONE IF NOT EXISTS " + zone + " (REPLICAS " + replicas + ", PARTITIONS " + partitions
        + ") STORAGE PROFILES ['default'];\n"
        + "CREATE TABLE IF NOT EXISTS " + VARIABLES + " (NAME VARCHAR, LONG_VALUE BIGINT, TEXT_VALUE VARCHAR,"
        + " PRIMARY KEY USING SORTED (NAME)) ZONE " + zone + ";\n"
        + "CREATE TABLE IF NOT EXISTS " + INODES + " (PART BIGINT, PARENT BIGINT, NAME VARCHAR, ID BIGINT NOT NULL,"
        + " IS_DIR BOOLEAN NOT NULL, PERMISSION SMALLINT NOT NULL, OWNER_NAME VARCHAR NOT NULL,"
        + " GROUP_NAME VARCHAR NOT NULL, MODIFICATION_TIME BIGINT NOT NULL, ACCESS_TIME BIGINT NOT NULL,"
        + " SIZE BIGINT NOT NULL, REPLICATION SMALLINT NOT NULL, PREFERRED_BLOCK_SIZE BIGINT NOT NULL,"
        + " STORAGE_POLICY TINYINT NOT NULL, UNDER_CONSTRUCTION BOOLEAN NOT NULL, CLIENT_NAME VARCHAR,"
        + " CLIENT_MACHINE VARCHAR, SYMLINK_TARGET VARCHAR, CHILDREN_COUNT BIGINT NOT NULL,"
        + " SPREAD_CHILDREN BOOLEAN NOT NULL, HAS_QUOTA BOOLEAN NOT NULL, SUBTREE_LOCK_OWNER BIGINT NOT NULL,"
        + " PRIMARY KEY USING SORTED (PART, PARENT, NAME)) COLOCATE BY (PART) ZONE " + zone + ";\n"
        + "CREATE INDEX IF NOT EXISTS " + INODES + "_BY_PARENT ON " + INODES + " USING SORTED (PARENT, NAME);\n"
        + "CREATE TABLE IF NOT EXISTS " + INODE_IDS + " (ID BIGINT, PART BIGINT NOT NULL, PARENT BIGINT NOT NULL,"
        + " NAME VARCHAR NOT NULL, PRIMARY KEY USING SORTED (ID)) ZONE " + zone + ";\n";
  }
}

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

  static final String ACLS = "CANOPY_ACL_ENTRIES";
  static final String BLOCKS = "CANOPY_BLOCKS";
  static final String BLOCK_LOOKUP = "CANOPY_BLOCK_LOOKUP";
  static final String REPLICAS = "CANOPY_REPLICAS";
  static final String UC_REPLICAS = "CANOPY_UC_REPLICAS";
  static final String LEASES = "CANOPY_LEASES";
  static final String LEASE_PATHS = "CANOPY_LEASE_PATHS";
  static final String DATANODES = "CANOPY_DATANODES";
  static final String STORAGES = "CANOPY_STORAGES";
  static final String INVALIDATIONS = "CANOPY_INVALIDATIONS";
  static final String REPLICATION_QUEUE = "CANOPY_REPLICATION_QUEUE";
  static final String RETRY_CACHE = "CANOPY_RETRY_CACHE";
  static final String NAMENODES = "CANOPY_NAMENODES";
  static final String FUTURE_BLOCKS = "CANOPY_FUTURE_BLOCKS";
  static final String XATTRS = "CANOPY_XATTRS";
  static final String SMALL_FILES = "CANOPY_SMALL_FILES";
  static final String QUOTAS = "CANOPY_DIRECTORY_QUOTAS";
  static final String SUBTREE_OPERATIONS = "CANOPY_SUBTREE_OPERATIONS";
  /** The largest small file's bytes a row holds (design 016 keeps far smaller ones in the database). */
  static final int SMALL_FILE_MAX_BYTES = 16 << 20;

  /** The longest inode name the key holds, in UTF-8 bytes (HDFS's default limit is 255). */
  static final int NAME_MAX_BYTES = 65_535;

  /** Tables in the order a forced format empties them. */
  static final List<String> TABLES = List.of(INODE_IDS, INODES, ACLS, BLOCKS, BLOCK_LOOKUP, REPLICAS, UC_REPLICAS, LEASES,
      LEASE_PATHS, DATANODES, STORAGES, INVALIDATIONS, REPLICATION_QUEUE, RETRY_CACHE, NAMENODES, FUTURE_BLOCKS, XATTRS,
      SMALL_FILES, QUOTAS, SUBTREE_OPERATIONS, VARIABLES);

  /** The per-file tables read by one inode id through a hash index ({@link #byInode}). */
  static final List<String> READ_BY_INODE = List.of(BLOCKS, REPLICAS, UC_REPLICAS, XATTRS);

  private IgniteSchema() {
  }

  private static String table(String name, String columns, String key, String colocation, String zone) {
    return "CREATE TABLE IF NOT EXISTS " + name + " (" + columns + ", PRIMARY KEY USING SORTED (" + key + "))"
        + (colocation == null ? "" : " COLOCATE BY (" + colocation + ")") + " ZONE " + zone + ";\n";
  }

  /** The suffix of a per-file table's hash index on its inode id ({@link #byInode}). */
  private static final String BY_INODE = "_BY_INODE";

  /**
   * The hash index on {@code table}'s inode id, through which one file's rows are read: a read through it locks that
   * id only, where a range of the sorted primary key locks the next key too (the end of the index, for the newest
   * file), and every insert of a newer file's row needs that lock (design 020: writers of new files refused one
   * another there under wait-die for 20 s).
   */
  static String byInode(String table) {
    return table + BY_INODE;
  }

  /** The statement that makes {@code table}'s hash index on its inode id when absent. */
  static String hashIndexByInode(String table) {
    return "CREATE INDEX IF NOT EXISTS " + byInode(table) + " ON " + table + " USING HASH (INODE_ID);\n";
  }

  private static String index(String table, String suffix, String columns) {
    return "CREATE INDEX IF NOT EXISTS " + table + "_" + suffix + " ON " + table + " USING SORTED (" + columns
        + ");\n";
  }

  /** The statements that make the zone and the tables when absent. */
  static String script(String zone, int replicas, int partitions) {
    return "CREATE ZONE IF NOT EXISTS " + zone + " (REPLICAS " + replicas + ", PARTITIONS " + partitions
        + ") STORAGE PROFILES ['default'];\n"
        + "CREATE TABLE IF NOT EXISTS " + VARIABLES + " (NAME VARCHAR, LONG_VALUE BIGINT, TEXT_VALUE VARCHAR,"
        + " PRIMARY KEY USING SORTED (NAME)) ZONE " + zone + ";\n"
        + "CREATE TABLE IF NOT EXISTS " + INODES + " (PART BIGINT, PARENT BIGINT, NAME VARBINARY(" + NAME_MAX_BYTES
        + "), ID BIGINT NOT NULL,"
        + " IS_DIR BOOLEAN NOT NULL, PERMISSION SMALLINT NOT NULL, OWNER_NAME VARCHAR NOT NULL,"
        + " GROUP_NAME VARCHAR NOT NULL, MODIFICATION_TIME BIGINT NOT NULL, ACCESS_TIME BIGINT NOT NULL,"
        + " SIZE BIGINT NOT NULL, REPLICATION SMALLINT NOT NULL, PREFERRED_BLOCK_SIZE BIGINT NOT NULL,"
        + " STORAGE_POLICY TINYINT NOT NULL, UNDER_CONSTRUCTION BOOLEAN NOT NULL, CLIENT_NAME VARCHAR,"
        + " CLIENT_MACHINE VARCHAR, SYMLINK_TARGET VARCHAR, CHILDREN_COUNT BIGINT NOT NULL,"
        + " SPREAD_CHILDREN BOOLEAN NOT NULL, HAS_QUOTA BOOLEAN NOT NULL, SUBTREE_LOCK_OWNER BIGINT NOT NULL,"
        + " PRIMARY KEY USING SORTED (PART, PARENT, NAME)) COLOCATE BY (PART) ZONE " + zone + ";\n"
        + "CREATE INDEX IF NOT EXISTS " + INODES + "_BY_PARENT ON " + INODES + " USING SORTED (PARENT, NAME);\n"
        + "CREATE TABLE IF NOT EXISTS " + INODE_IDS + " (ID BIGINT, PART BIGINT NOT NULL, PARENT BIGINT NOT NULL,"
        + " NAME VARCHAR NOT NULL, PRIMARY KEY USING SORTED (ID)) ZONE " + zone + ";\n"
        + table(ACLS, "INODE_ID BIGINT, ENTRY_POSITION INT, SCOPE TINYINT NOT NULL, ENTRY_TYPE TINYINT NOT NULL,"
            + " NAME VARCHAR, PERMISSION TINYINT NOT NULL", "INODE_ID, ENTRY_POSITION", "INODE_ID", zone)
        + table(BLOCKS, "INODE_ID BIGINT, BLOCK_ID BIGINT, IDX INT NOT NULL, NUM_BYTES BIGINT NOT NULL,"
            + " GENERATION_STAMP BIGINT NOT NULL, STATE TINYINT NOT NULL, RECOVERY_ID BIGINT NOT NULL,"
            + " TRUNCATE_LENGTH BIGINT NOT NULL", "INODE_ID, BLOCK_ID", "INODE_ID", zone)
        + hashIndexByInode(BLOCKS)
        + table(BLOCK_LOOKUP, "BLOCK_ID BIGINT, INODE_ID BIGINT NOT NULL", "BLOCK_ID", null, zone)
        + table(REPLICAS, "INODE_ID BIGINT, BLOCK_ID BIGINT, STORAGE_ID VARCHAR, CORRUPT_REASON TINYINT NOT NULL,"
            + " CORRUPT_GENERATION_STAMP BIGINT NOT NULL", "INODE_ID, BLOCK_ID, STORAGE_ID", "INODE_ID", zone)
        + index(REPLICAS, "BY_STORAGE", "STORAGE_ID, INODE_ID, BLOCK_ID")
        + hashIndexByInode(REPLICAS)
        + table(UC_REPLICAS, "INODE_ID BIGINT, BLOCK_ID BIGINT, STORAGE_ID VARCHAR, STATE TINYINT NOT NULL,"
            + " GENERATION_STAMP BIGINT NOT NULL", "INODE_ID, BLOCK_ID, STORAGE_ID", "INODE_ID", zone)
        + hashIndexByInode(UC_REPLICAS)
        + table(LEASES, "HOLDER VARCHAR, LAST_RENEWED_MS BIGINT NOT NULL", "HOLDER", null, zone)
        + index(LEASES, "BY_RENEWAL", "LAST_RENEWED_MS, HOLDER")
        + table(LEASE_PATHS, "HOLDER VARCHAR, INODE_ID BIGINT", "HOLDER, INODE_ID", "HOLDER", zone)
        + table(DATANODES, "DATANODE_UUID VARCHAR, HOST_NAME VARCHAR NOT NULL, IP_ADDRESS VARCHAR NOT NULL,"
            + " TRANSFER_PORT INT NOT NULL, INFO_PORT INT NOT NULL, INFO_SECURE_PORT INT NOT NULL,"
            + " IPC_PORT INT NOT NULL, NETWORK_LOCATION VARCHAR NOT NULL, SOFTWARE_VERSION VARCHAR NOT NULL,"
            + " LAST_HEARTBEAT_MS BIGINT NOT NULL, CAPACITY BIGINT NOT NULL, DFS_USED BIGINT NOT NULL,"
            + " REMAINING BIGINT NOT NULL, BLOCK_POOL_USED BIGINT NOT NULL, NON_DFS_USED BIGINT NOT NULL,"
            + " TRANSCEIVER_COUNT INT NOT NULL, REGISTERED_AT_MS BIGINT NOT NULL,"
            + " DECLARED_DEAD_AT_MS BIGINT NOT NULL", "DATANODE_UUID", null, zone)
        + table(STORAGES, "DATANODE_UUID VARCHAR, STORAGE_ID VARCHAR, STORAGE_TYPE VARCHAR NOT NULL,"
            + " FAILED BOOLEAN NOT NULL, CAPACITY BIGINT NOT NULL, DFS_USED BIGINT NOT NULL, REMAINING BIGINT NOT NULL,"
            + " BLOCK_POOL_USED BIGINT NOT NULL", "DATANODE_UUID, STORAGE_ID", "DATANODE_UUID", zone)
        + table(INVALIDATIONS, "DATANODE_UUID VARCHAR, BLOCK_ID BIGINT, GENERATION_STAMP BIGINT NOT NULL,"
            + " NUM_BYTES BIGINT NOT NULL", "DATANODE_UUID, BLOCK_ID", "DATANODE_UUID", zone)
        + table(REPLICATION_QUEUE, "INODE_ID BIGINT, BLOCK_ID BIGINT, PRIORITY TINYINT NOT NULL,"
            + " NOT_BEFORE_MS BIGINT NOT NULL", "INODE_ID, BLOCK_ID", "INODE_ID", zone)
        + index(REPLICATION_QUEUE, "BY_PRIORITY", "PRIORITY, INODE_ID, BLOCK_ID")
        + table(RETRY_CACHE, "CLIENT_ID VARCHAR, CALL_ID INT, OPERATION VARCHAR NOT NULL,"
            + " RESULT_DATA VARBINARY(" + SMALL_FILE_MAX_BYTES + ") NOT NULL, EXPIRES_AT_MS BIGINT NOT NULL",
            "CLIENT_ID, CALL_ID", null, zone)
        + index(RETRY_CACHE, "BY_EXPIRY", "EXPIRES_AT_MS")
        + table(NAMENODES, "ID BIGINT, COUNTER BIGINT NOT NULL, RPC_ADDRESS VARCHAR NOT NULL, HTTP_ADDRESS VARCHAR,"
            + " LOCATION_DOMAIN_ID INT NOT NULL, STARTED_AT_MS BIGINT NOT NULL, LAST_ROUND_MS BIGINT NOT NULL", "ID",
            null, zone)
        + table(FUTURE_BLOCKS, "BLOCK_ID BIGINT, GENERATION_STAMP BIGINT NOT NULL, NUM_BYTES BIGINT NOT NULL,"
            + " DATANODE_UUID VARCHAR NOT NULL, REPORTED_AT_MS BIGINT NOT NULL", "BLOCK_ID", null, zone)
        + table(XATTRS, "INODE_ID BIGINT, NAMESPACE TINYINT, NAME VARCHAR, VAL VARBINARY(" + SMALL_FILE_MAX_BYTES + ")",
            "INODE_ID, NAMESPACE, NAME", "INODE_ID", zone)
        + hashIndexByInode(XATTRS)
        + table(SMALL_FILES, "INODE_ID BIGINT, DATA VARBINARY(" + SMALL_FILE_MAX_BYTES + ") NOT NULL", "INODE_ID",
            null, zone)
        + table(QUOTAS, "INODE_ID BIGINT, NAMESPACE_QUOTA BIGINT NOT NULL, STORAGE_SPACE_QUOTA BIGINT NOT NULL,"
            + " NAMESPACE_USED BIGINT NOT NULL, STORAGE_SPACE_USED BIGINT NOT NULL", "INODE_ID", null, zone)
        + table(SUBTREE_OPERATIONS, "ROOT_ID BIGINT, NAMENODE_ID BIGINT NOT NULL, OPERATION VARCHAR NOT NULL,"
            + " OP_PATH VARCHAR NOT NULL, STARTED_MS BIGINT NOT NULL", "ROOT_ID", null, zone);
  }
}

-- Canopy metadata schema, version 1: the namespace, blocks, leases and datanodes.
-- Every table names its partition key first in its primary key (DESIGN s.4): a distributed engine shards on it.
-- Names use the "C" collation so that ORDER BY name is HDFS's byte order of UTF-8 names.

CREATE TABLE variables (
  name        text PRIMARY KEY,
  long_value  bigint,
  text_value  text
);

CREATE TABLE inodes (
  partition_id        bigint   NOT NULL,
  parent_id           bigint   NOT NULL,
  name                text     COLLATE "C" NOT NULL,
  id                  bigint   NOT NULL,
  is_dir              boolean  NOT NULL,
  permission          smallint NOT NULL,
  owner_name          text     NOT NULL,
  group_name          text     NOT NULL,
  modification_time   bigint   NOT NULL,
  access_time         bigint   NOT NULL,
  size                bigint   NOT NULL,
  replication         smallint NOT NULL,
  preferred_block_size bigint  NOT NULL,
  storage_policy      smallint NOT NULL,
  under_construction  boolean  NOT NULL,
  client_name         text,
  client_machine      text,
  symlink_target      text,
  children_count      bigint   NOT NULL,
  PRIMARY KEY (partition_id, parent_id, name),
  CONSTRAINT inodes_id_unique UNIQUE (id)
);

CREATE TABLE blocks (
  inode_id          bigint   NOT NULL,
  block_id          bigint   NOT NULL,
  block_index       integer  NOT NULL,
  num_bytes         bigint   NOT NULL,
  generation_stamp  bigint   NOT NULL,
  state             smallint NOT NULL,
  PRIMARY KEY (inode_id, block_id)
);

CREATE TABLE block_lookup (
  block_id  bigint PRIMARY KEY,
  inode_id  bigint NOT NULL
);

CREATE TABLE replicas (
  inode_id    bigint NOT NULL,
  block_id    bigint NOT NULL,
  storage_id  text   NOT NULL,
  PRIMARY KEY (inode_id, block_id, storage_id)
);
-- Full block reports reconcile one storage at a time; never used on the client request path.
CREATE INDEX replicas_by_storage ON replicas (storage_id);

CREATE TABLE uc_replicas (
  inode_id          bigint   NOT NULL,
  block_id          bigint   NOT NULL,
  storage_id        text     NOT NULL,
  state             smallint NOT NULL,
  generation_stamp  bigint   NOT NULL,
  PRIMARY KEY (inode_id, block_id, storage_id)
);

CREATE TABLE leases (
  holder          text   PRIMARY KEY,
  last_renewed_ms bigint NOT NULL
);

CREATE TABLE lease_paths (
  holder    text   NOT NULL,
  inode_id  bigint NOT NULL,
  PRIMARY KEY (holder, inode_id)
);

CREATE TABLE datanodes (
  uuid              text     PRIMARY KEY,
  host_name         text     NOT NULL,
  ip_address        text     NOT NULL,
  transfer_port     integer  NOT NULL,
  info_port         integer  NOT NULL,
  info_secure_port  integer  NOT NULL,
  ipc_port          integer  NOT NULL,
  network_location  text     NOT NULL,
  software_version  text     NOT NULL,
  last_heartbeat_ms bigint   NOT NULL,
  capacity          bigint   NOT NULL,
  dfs_used          bigint   NOT NULL,
  remaining         bigint   NOT NULL,
  block_pool_used   bigint   NOT NULL,
  non_dfs_used      bigint   NOT NULL,
  transceiver_count integer  NOT NULL,
  registered_at_ms  bigint   NOT NULL
);

CREATE TABLE storages (
  datanode_uuid    text    NOT NULL,
  storage_id       text    NOT NULL,
  storage_type     text    NOT NULL,
  failed           boolean NOT NULL,
  capacity         bigint  NOT NULL,
  dfs_used         bigint  NOT NULL,
  remaining        bigint  NOT NULL,
  block_pool_used  bigint  NOT NULL,
  PRIMARY KEY (datanode_uuid, storage_id)
);

CREATE TABLE invalidated_blocks (
  datanode_uuid     text   NOT NULL,
  block_id          bigint NOT NULL,
  generation_stamp  bigint NOT NULL,
  num_bytes         bigint NOT NULL,
  PRIMARY KEY (datanode_uuid, block_id)
);

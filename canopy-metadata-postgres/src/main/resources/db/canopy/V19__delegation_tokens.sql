-- Issue 20: HDFS delegation tokens and their master keys, shared by every namenode (DelegationTokenStore, design
-- 023). A token row holds the token's password and a key row the HMAC key: secrets, hidden from the read-only
-- operators' role as block_keys is (V18); the embedded server revokes the reader's grants again at each start.
CREATE TABLE delegation_tokens (
  sequence_num      integer NOT NULL,
  token_identifier  bytea   NOT NULL,
  token_info        bytea   NOT NULL,
  modified_ms       bigint  NOT NULL,
  PRIMARY KEY (sequence_num, token_identifier)
);

CREATE INDEX delegation_tokens_modified ON delegation_tokens (modified_ms);

CREATE TABLE delegation_keys (
  key_id          integer PRIMARY KEY,
  delegation_key  bytea   NOT NULL,
  expiry_ms       bigint  NOT NULL
);

CREATE TABLE delegation_counters (
  name   text    PRIMARY KEY,
  value  integer NOT NULL
);

INSERT INTO delegation_counters (name, value) VALUES ('TOKEN_SEQUENCE', 0), ('KEY_ID', 0);

REVOKE ALL ON TABLE delegation_tokens, delegation_keys, delegation_counters FROM PUBLIC;

DO $$
DECLARE
  grant_row record;
BEGIN
  FOR grant_row IN SELECT DISTINCT g.grantee, g.table_name FROM information_schema.role_table_grants g
      WHERE g.table_schema = current_schema()
        AND g.table_name IN ('delegation_tokens', 'delegation_keys', 'delegation_counters')
        AND g.grantee <> current_user AND g.grantee <> 'PUBLIC' LOOP
    EXECUTE format('REVOKE ALL ON TABLE %I FROM %I', grant_row.table_name, grant_row.grantee);
  END LOOP;
END $$;

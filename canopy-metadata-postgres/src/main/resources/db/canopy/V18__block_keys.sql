-- Issue 20: the secret keys block access tokens are signed with, shared by every namenode (BlockKeys). They are
-- secrets: the read-only operators' role, which may read every other table, may not read this one. Default
-- privileges grant it SELECT on the owner's new tables, so every grant on this table but the owner's is revoked here;
-- the embedded server revokes the reader's again each time it grants it every table (DatabaseRoles).
CREATE TABLE block_keys (
  key_id     integer PRIMARY KEY,
  expiry_ms  bigint  NOT NULL,
  secret     bytea   NOT NULL
);

REVOKE ALL ON TABLE block_keys FROM PUBLIC;

DO $$
DECLARE
  grantee text;
BEGIN
  FOR grantee IN SELECT DISTINCT g.grantee FROM information_schema.role_table_grants g
      WHERE g.table_schema = current_schema() AND g.table_name = 'block_keys' AND g.grantee <> current_user
        AND g.grantee <> 'PUBLIC' LOOP
    EXECUTE format('REVOKE ALL ON TABLE block_keys FROM %I', grantee);
  END LOOP;
END $$;

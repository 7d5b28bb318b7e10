package io.canopy.metadata.postgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * The two roles of a Canopy metadata database (docs/design/010). The <b>owner</b> owns the schema and its tables,
 * runs the migrations and is what namenodes log in as: no superuser, cannot create roles or databases. The
 * <b>reader</b> may only read the tables (those of later migrations too) and is what {@code canopy sql} logs in as.
 * Neither can run programs or read the server's files: those are superuser privileges. An external database gets
 * the same roles from its administrator (the statements are in the design note); the embedded server gets them
 * here, on every start, from a superuser connection.
 */
public final class DatabaseRoles {
  public static final String OWNER = "canopy_owner";
  public static final String READER = "canopy_reader";
  /**
   * Relation kinds whose owner moves to the owner role: tables (plain, partitioned) and views. A directory made by an
   * older release has its tables owned by the superuser, which the namenodes logged in as.
   */
  /** Tables the read-only role may not read: they hold secrets (keys, token passwords). */
  static final java.util.List<String> SECRET_TABLES = java.util.List.of("block_keys", "delegation_tokens",
      "delegation_keys", "delegation_counters");

  private static final String TAKE_OVER_RELATIONS = "DO $$ DECLARE r record; BEGIN "
      + "FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      + "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm') AND c.relowner <> '%1$s'::regrole LOOP "
      + "EXECUTE format('ALTER %%s public.%%I OWNER TO %1$s', CASE r.relkind WHEN 'v' THEN 'VIEW' "
      + "WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END, r.relname); END LOOP; END $$";

  private DatabaseRoles() {
  }

  /**
   * Creates the roles when missing, sets their attributes and passwords (SCRAM-SHA-256, hashed by the driver: the
   * password never reaches the server or its log), and the grants on {@code database}, to which {@code superuser}
   * is connected. Idempotent.
   */
  static void provision(Connection superuser, String database, DatabaseLogin owner, DatabaseLogin reader)
      throws SQLException, IOException {
    checkName(database);
    String ownerRole = checkName(owner.user());
    String readerRole = checkName(reader.user());
    superuser.setAutoCommit(true);
    for (String role : new String[] {ownerRole, readerRole}) {
      execute(superuser, "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + role + "') THEN "
          + "CREATE ROLE " + role + "; END IF; END $$");
      execute(superuser, "ALTER ROLE " + role + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
          + "NOBYPASSRLS");
    }
    PGConnection driver = superuser.unwrap(PGConnection.class);
    driver.alterUserPassword(ownerRole, owner.password().toCharArray(), "scram-sha-256");
    driver.alterUserPassword(readerRole, reader.password().toCharArray(), "scram-sha-256");
    execute(superuser, "REVOKE ALL ON DATABASE " + database + " FROM PUBLIC");
    execute(superuser, "GRANT CONNECT ON DATABASE " + database + " TO " + ownerRole + ", " + readerRole);
    // template1 lets everyone in by default: nothing to read there, but temporary tables to write.
    execute(superuser, "REVOKE CONNECT, TEMPORARY ON DATABASE template1 FROM PUBLIC");
    execute(superuser, "ALTER SCHEMA public OWNER TO " + ownerRole);
    execute(superuser, "REVOKE ALL ON SCHEMA public FROM PUBLIC");
    execute(superuser, "GRANT USAGE ON SCHEMA public TO " + readerRole);
    execute(superuser, String.format(TAKE_OVER_RELATIONS, ownerRole));
    // every table to the reader but the secret ones (block keys, V18; delegation tokens and keys, V19): one
    // transaction, so the reader never holds them in between
    superuser.setAutoCommit(false);
    execute(superuser, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + readerRole);
    for (String secret : SECRET_TABLES) {
      execute(superuser, "DO $$ BEGIN IF to_regclass('public." + secret + "') IS NOT NULL THEN "
          + "REVOKE ALL ON TABLE public." + secret + " FROM " + readerRole + "; END IF; END $$");
    }
    superuser.commit();
    superuser.setAutoCommit(true);
    execute(superuser, "ALTER DEFAULT PRIVILEGES FOR ROLE " + ownerRole + " IN SCHEMA public GRANT SELECT ON TABLES "
        + "TO " + readerRole);
    execute(superuser, "ALTER ROLE " + readerRole + " SET default_transaction_read_only = on");
  }

  /** Names go into statements unquoted: only lower-case identifiers are accepted. */
  private static String checkName(String name) {
    if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("database and role names must be lower-case identifiers, got '" + name + "'");
    }
    return name;
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}

package io.canopy.metadata.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The timeouts' rules: each name the key at fault and what it must be. */
class PostgresSettingsTest {
  @Test
  void defaultsAreConsistent() {
    PostgresSettings defaults = new PostgresSettings(Map.of());
    assertTrue(defaults.statementTimeoutMs() >= defaults.lockTimeoutMs());
    assertTrue(defaults.socketTimeoutSeconds() * 1000L > defaults.statementTimeoutMs());
    assertTrue(defaults.validationTimeoutMs() < defaults.connectionTimeoutMs());
    String options = defaults.driverProperties(false).get("options");
    assertTrue(options.contains("-c statement_timeout=" + PostgresSettings.STATEMENT_TIMEOUT_MS_DEFAULT), options);
    assertTrue(options.contains("-c idle_in_transaction_session_timeout="
        + PostgresSettings.IDLE_IN_TRANSACTION_TIMEOUT_MS_DEFAULT), options);
  }

  @Test
  void socketTimeoutIsRoundedUpToTheDriversWholeSeconds() {
    PostgresSettings settings = new PostgresSettings(Map.of(PostgresSettings.LOCK_TIMEOUT_MS, "1000",
        PostgresSettings.STATEMENT_TIMEOUT_MS, "2000", PostgresSettings.SOCKET_TIMEOUT_MS, "2500"));
    assertEquals(3, settings.socketTimeoutSeconds());
    assertEquals("3", settings.driverProperties(true).get("socketTimeout"));
  }

  @Test
  void aStatementTimeoutBelowTheLockTimeoutIsRefused() {
    PostgresSettings settings = new PostgresSettings(Map.of(PostgresSettings.LOCK_TIMEOUT_MS, "5000",
        PostgresSettings.STATEMENT_TIMEOUT_MS, "4000"));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, settings::statementTimeoutMs);
    assertTrue(refused.getMessage().contains(PostgresSettings.STATEMENT_TIMEOUT_MS), refused.getMessage());
  }

  @Test
  void aSocketTimeoutNotAboveTheStatementTimeoutIsRefused() {
    PostgresSettings settings = new PostgresSettings(Map.of(PostgresSettings.STATEMENT_TIMEOUT_MS, "30000",
        PostgresSettings.SOCKET_TIMEOUT_MS, "30000"));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, settings::socketTimeoutSeconds);
    assertTrue(refused.getMessage().contains(PostgresSettings.SOCKET_TIMEOUT_MS), refused.getMessage());
  }

  @Test
  void timeoutsMustBeNumbersAboveTheirMinimum() {
    assertThrows(IllegalArgumentException.class,
        () -> new PostgresSettings(Map.of(PostgresSettings.CONNECTION_TIMEOUT_MS, "100")).connectionTimeoutMs());
    IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
        () -> new PostgresSettings(Map.of(PostgresSettings.IDLE_IN_TRANSACTION_TIMEOUT_MS, "1m"))
            .idleInTransactionTimeoutMs());
    assertTrue(notANumber.getMessage().contains("'1m'"), notANumber.getMessage());
  }

  @Test
  void statementsArePreparedOnTheServerAndPlannedOnceByDefault() {
    Map<String, String> driver = new PostgresSettings(Map.of()).driverProperties(false);
    assertEquals("1", driver.get("prepareThreshold"));
    assertTrue(driver.get("options").contains("-c plan_cache_mode=force_generic_plan"), driver.get("options"));
    Map<String, String> custom = new PostgresSettings(Map.of(PostgresSettings.PREPARE_THRESHOLD, "0",
        PostgresSettings.PLAN_CACHE_MODE, "auto")).driverProperties(true);
    assertEquals("0", custom.get("prepareThreshold"));
    assertTrue(custom.get("options").contains("-c plan_cache_mode=auto"), custom.get("options"));
  }

  @Test
  void sequentialScansAreOffUnlessAsked() {
    assertTrue(new PostgresSettings(Map.of()).driverProperties(false).get("options").contains("-c enable_seqscan=off"));
    assertTrue(new PostgresSettings(Map.of(PostgresSettings.SEQSCAN, "true")).driverProperties(false).get("options")
        .contains("-c enable_seqscan=on"));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> new PostgresSettings(Map.of(PostgresSettings.SEQSCAN, "no")).seqScan());
    assertTrue(bad.getMessage().contains(PostgresSettings.SEQSCAN), bad.getMessage());
  }

  @Test
  void planCacheModeAndPrepareThresholdAreChecked() {
    IllegalArgumentException mode = assertThrows(IllegalArgumentException.class,
        () -> new PostgresSettings(Map.of(PostgresSettings.PLAN_CACHE_MODE, "generic")).planCacheMode());
    assertTrue(mode.getMessage().contains(PostgresSettings.PLAN_CACHE_MODE), mode.getMessage());
    IllegalArgumentException threshold = assertThrows(IllegalArgumentException.class,
        () -> new PostgresSettings(Map.of(PostgresSettings.PREPARE_THRESHOLD, "-1")).prepareThreshold());
    assertTrue(threshold.getMessage().contains(PostgresSettings.PREPARE_THRESHOLD), threshold.getMessage());
  }
}

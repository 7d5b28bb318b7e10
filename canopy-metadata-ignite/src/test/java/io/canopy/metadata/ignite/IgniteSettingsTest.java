package io.canopy.metadata.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad engine settings are refused with the key, the value and the allowed range named. */
class IgniteSettingsTest {
  private static String refusal(Map<String, String> settings, SettingsCall call) {
    StoreException refused = assertThrows(StoreException.class, () -> call.read(new IgniteSettings(settings)));
    return refused.getMessage();
  }

  private interface SettingsCall {
    void read(IgniteSettings settings) throws StoreException;
  }

  @Test
  void addressesAreRequiredAndEachMustBeHostAndPort() throws Exception {
    assertTrue(refusal(Map.of(), IgniteSettings::addresses).contains(IgniteSettings.ADDRESSES));
    String noPort = refusal(Map.of(IgniteSettings.ADDRESSES, "127.0.0.1:10800,db-2"), IgniteSettings::addresses);
    assertTrue(noPort.contains("'db-2' is not host:port"), noPort);
    String badPort = refusal(Map.of(IgniteSettings.ADDRESSES, "127.0.0.1:70000"), IgniteSettings::addresses);
    assertTrue(badPort.contains("70000 is outside 1..65535"), badPort);
    assertEquals(List.of("127.0.0.1:10800", "127.0.0.1:10801"),
        new IgniteSettings(Map.of(IgniteSettings.ADDRESSES, " 127.0.0.1:10800, 127.0.0.1:10801")).addresses());
  }

  @Test
  void numbersOutsideTheirRangeOrNotNumbersAreRefused() throws Exception {
    String replicas = refusal(Map.of(IgniteSettings.REPLICAS, "0"), IgniteSettings::replicas);
    assertTrue(replicas.contains(IgniteSettings.REPLICAS) && replicas.contains("1..9"), replicas);
    String partitions = refusal(Map.of(IgniteSettings.PARTITIONS, "many"), IgniteSettings::partitions);
    assertTrue(partitions.contains("'many' is not a number"), partitions);
    String timeout = refusal(Map.of(IgniteSettings.TIMEOUT_MS, "5"), IgniteSettings::timeoutMs);
    assertTrue(timeout.contains("100..3600000"), timeout);
    String transactions = refusal(Map.of(IgniteSettings.TRANSACTION_TIMEOUT_MS, "999"),
        IgniteSettings::transactionTimeoutMs);
    assertTrue(transactions.contains(IgniteSettings.TRANSACTION_TIMEOUT_MS) && transactions.contains("1000..3600000"),
        transactions);
    assertEquals(IgniteSettings.TRANSACTION_TIMEOUT_MS_DEFAULT, new IgniteSettings(Map.of()).transactionTimeoutMs());
    assertEquals(IgniteSettings.REPLICAS_DEFAULT, new IgniteSettings(Map.of()).replicas());
    assertEquals(IgniteSettings.PARTITIONS_DEFAULT, new IgniteSettings(Map.of()).partitions());
  }

  @Test
  void theZoneMustBeAnUpperCaseIdentifier() throws Exception {
    String zone = refusal(Map.of(IgniteSettings.ZONE, "canopy; DROP"), IgniteSettings::zone);
    assertTrue(zone.contains("upper-case SQL identifier"), zone);
    assertEquals("CANOPY", new IgniteSettings(Map.of()).zone());
  }
}

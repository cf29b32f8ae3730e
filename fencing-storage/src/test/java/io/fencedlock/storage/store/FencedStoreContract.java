package io.fencedlock.storage.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.WriteResult.Accepted;
import io.fencedlock.storage.WriteResult.Reason;
import io.fencedlock.storage.WriteResult.Rejected;
import io.fencedlock.testkit.support.Timing;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every database under {@link JdbcFencedStore} must satisfy. Subclasses supply a fresh, empty
 * database per test.
 */
abstract class FencedStoreContract {
  private static final String OWNER_A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
  private static final String OWNER_B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

  private String jdbcUrl;
  private FencedStore store;

  /** A JDBC URL of a new, empty database. */
  abstract String newDatabaseUrl();

  @BeforeEach
  final void openStore() {
    jdbcUrl = newDatabaseUrl();
    store = JdbcFencedStore.open(jdbcUrl);
  }

  @AfterEach
  final void closeStore() {
    store.close();
  }

  @Test
  void put_absentKey_acceptedAndReadable() {
    assertThat(store.put("k", bytes("v1"), 5, OWNER_A)).isEqualTo(new Accepted(5));

    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
  }

  @Test
  void get_absentKey_empty() {
    assertThat(store.get("missing")).isEmpty();
  }

  @Test
  void put_higherToken_acceptedAndReplacesValue() {
    store.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(store.put("k", bytes("v2"), 6, OWNER_B)).isEqualTo(new Accepted(6));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v2"), 6, OWNER_B));
  }

  @Test
  void put_lowerToken_rejectedStaleAndValueUnchanged() {
    store.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(store.put("k", bytes("late"), 4, OWNER_B)).isEqualTo(new Rejected(5, Reason.STALE));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
  }

  @Test
  void put_equalTokenSameOwner_accepted() {
    store.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(store.put("k", bytes("v2"), 5, OWNER_A)).isEqualTo(new Accepted(5));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v2"), 5, OWNER_A));
  }

  @Test
  void put_equalTokenOtherOwner_rejectedAlarm() {
    store.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(store.put("k", bytes("v2"), 5, OWNER_B)).isEqualTo(new Rejected(5, Reason.ALARM));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
  }

  @Test
  void put_keysAreIndependent_otherKeyUnaffected() {
    store.put("k1", bytes("v1"), 50, OWNER_A);

    assertThat(store.put("k2", bytes("v2"), 1, OWNER_B)).isEqualTo(new Accepted(1));
    assertThat(store.get("k1")).contains(new StoredObject(bytes("v1"), 50, OWNER_A));
  }

  @Test
  void fence_absentKey_raisesHighWaterWithoutValue() {
    assertThat(store.fence("k", 7, OWNER_A)).isEqualTo(new Accepted(7));

    assertThat(store.get("k")).isEmpty();
    assertThat(store.put("k", bytes("late"), 6, OWNER_B)).isEqualTo(new Rejected(7, Reason.STALE));
    assertThat(store.put("k", bytes("v"), 7, OWNER_A)).isEqualTo(new Accepted(7));
  }

  @Test
  void fence_afterPut_keepsValueAndRaisesToken() {
    store.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(store.fence("k", 9, OWNER_B)).isEqualTo(new Accepted(9));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 9, OWNER_B));
  }

  @Test
  void fence_thenPutBetweenOldAndNewToken_rejectedStale() {
    store.put("k", bytes("v1"), 5, OWNER_A);
    store.fence("k", 9, OWNER_B);

    assertThat(store.put("k", bytes("late"), 8, OWNER_A)).isEqualTo(new Rejected(9, Reason.STALE));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 9, OWNER_B));
  }

  @Test
  void fence_lowerOrEqualOtherOwner_rejectedAndHighWaterUnchanged() {
    store.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(store.fence("k", 4, OWNER_B)).isEqualTo(new Rejected(5, Reason.STALE));
    assertThat(store.fence("k", 5, OWNER_B)).isEqualTo(new Rejected(5, Reason.ALARM));
    assertThat(store.fence("k", 5, OWNER_A)).isEqualTo(new Accepted(5));
    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
  }

  @Test
  void put_emptyValue_storedAsEmptyNotAbsent() {
    store.put("k", new byte[0], 1, OWNER_A);

    assertThat(store.get("k")).contains(new StoredObject(new byte[0], 1, OWNER_A));
  }

  @Test
  void put_largestValueAndToken_roundTrip() {
    byte[] value = new byte[StorageProtocol.MAX_VALUE_BYTES];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) i;
    }

    assertThat(store.put("k", value, Long.MAX_VALUE, OWNER_A))
        .isEqualTo(new Accepted(Long.MAX_VALUE));
    assertThat(store.get("k")).contains(new StoredObject(value, Long.MAX_VALUE, OWNER_A));
  }

  @Test
  void reopen_afterClose_keepsValuesAndHighWaterMarks() {
    store.put("k", bytes("v1"), 5, OWNER_A);
    store.fence("f", 8, OWNER_B);
    store.close();

    store = JdbcFencedStore.open(jdbcUrl);

    assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
    assertThat(store.fence("f", 7, OWNER_A)).isEqualTo(new Rejected(8, Reason.STALE));
  }

  @Test
  void put_illegalArguments_throwIllegalArgumentAndStoreNothing() {
    assertThatThrownBy(() -> store.put("bad key", bytes("v"), 1, OWNER_A))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.put("k", bytes("v"), -1, OWNER_A))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.put("k", bytes("v"), 1, " "))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] tooLarge = new byte[StorageProtocol.MAX_VALUE_BYTES + 1];
    assertThatThrownBy(() -> store.put("k", tooLarge, 1, OWNER_A))
        .isInstanceOf(IllegalArgumentException.class);

    assertThat(store.get("k")).isEmpty();
  }

  @Test
  void close_twice_harmlessAndLaterCallsFail() {
    store.close();
    store.close();

    assertThatThrownBy(() -> store.get("k")).isInstanceOf(StoreException.class);
    assertThat(store.isHealthy()).isFalse();
  }

  @Test
  void open_existingTableWithOtherColumnTypes_refusesNamingEachColumn() throws Exception {
    String otherUrl = newDatabaseUrl();
    String blob = Dialect.forUrl(otherUrl).columns().get("value");
    try (Connection connection = DriverManager.getConnection(otherUrl);
        Statement statement = connection.createStatement()) {
      // A text token would compare as text: '9' > '10'. And no owner column at all.
      statement.execute(
          "CREATE TABLE objects (id TEXT PRIMARY KEY, value " + blob + ", token TEXT NOT NULL)");
    }

    assertThatThrownBy(() -> JdbcFencedStore.open(otherUrl))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("expected schema")
        .hasMessageContaining("column token is text, want bigint")
        .hasMessageContaining("column owner is missing")
        .hasMessageNotContaining("column id")
        .hasMessageNotContaining("column value");
  }

  @Test
  void isHealthy_openStore_true() {
    assertThat(store.isHealthy()).isTrue();
  }

  @Test
  void put_racingThreadsDistinctTokens_highestTokenWinsAndNoLowerOverwrites() throws Exception {
    List<Long> tokens = new ArrayList<>(LongStream.rangeClosed(1, 200).boxed().toList());
    Collections.shuffle(tokens, new Random(42));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<WriteResult>> results = new ArrayList<>();
      for (long token : tokens) {
        results.add(pool.submit(() -> store.put("k", bytes("v" + token), token, "o" + token)));
      }
      for (Future<WriteResult> result : results) {
        result.get(Timing.WORKLOAD.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(store.get("k")).contains(new StoredObject(bytes("v200"), 200, "o200"));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }
}

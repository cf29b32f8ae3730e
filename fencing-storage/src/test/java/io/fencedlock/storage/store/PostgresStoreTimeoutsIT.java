package io.fencedlock.storage.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.postgres.PostgresExtension;
import io.fencedlock.testkit.support.Timing;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the store sets on each PostgreSQL session, and what happens when a call waits past one of
 * its bounds: it fails saying nothing changed, and indeed nothing did. Every store call under test
 * runs in a future with a bound, so a call that would wait forever fails the test instead.
 */
final class PostgresStoreTimeoutsIT {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  /** Store calls run here, each on its own thread: they block, by design. */
  private final ExecutorService callers = Executors.newCachedThreadPool();

  /** Short, so that the tests' locks outlast it; not scaled, it is the behaviour under test. */
  private static final Duration SHORT = Duration.ofMillis(300);

  @AfterEach
  void stopCallers() {
    callers.shutdownNow();
  }

  @Test
  void connect_databaseDefaultsWeakened_sessionSetsItsOwn() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    try (Connection admin = DriverManager.getConnection(url);
        Statement statement = admin.createStatement()) {
      String database = "\"" + single(statement, "SELECT current_database()") + "\"";
      statement.execute("ALTER DATABASE " + database + " SET synchronous_commit = off");
      statement.execute("ALTER DATABASE " + database + " SET lock_timeout = 0");
      statement.execute("ALTER DATABASE " + database + " SET statement_timeout = 0");
    }
    StoreTimeouts timeouts =
        new StoreTimeouts(Timing.AWAIT, Duration.ofMillis(1234), Duration.ofMillis(5678));

    try (ConnectionPool pool = new ConnectionPool(Dialect.POSTGRESQL, url, timeouts)) {
      List<String> settings =
          pool.inTransaction(
              connection -> {
                try (Statement statement = connection.createStatement()) {
                  return List.of(
                      single(statement, "SHOW synchronous_commit"),
                      single(statement, "SHOW lock_timeout"),
                      single(statement, "SHOW statement_timeout"));
                }
              });

      assertThat(settings).containsExactly("on", "1234ms", "5678ms");
    }
  }

  @Test
  void put_rowLockedPastLockTimeout_failsChangedNothingAndRowUnchanged() throws Exception {
    assertGivesUpOnLockedRow(new StoreTimeouts(Timing.AWAIT, SHORT, Timing.WORKLOAD), "55P03");
  }

  @Test
  void put_rowLockedPastStatementTimeout_failsChangedNothingAndRowUnchanged() throws Exception {
    assertGivesUpOnLockedRow(new StoreTimeouts(Timing.AWAIT, Timing.WORKLOAD, SHORT), "57014");
  }

  @Test
  void put_noConnectionFreeInTime_failsChangedNothingAndNeverWrites() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    int connections = Dialect.POSTGRESQL.maxConnections();
    try (JdbcFencedStore store =
            JdbcFencedStore.open(url, new StoreTimeouts(SHORT, Timing.WORKLOAD, Timing.WORKLOAD));
        Connection other = DriverManager.getConnection(url);
        Statement statement = other.createStatement()) {
      List<CompletableFuture<WriteResult>> holding = new ArrayList<>();
      other.setAutoCommit(false);
      statement.execute("LOCK TABLE objects IN EXCLUSIVE MODE");
      for (int i = 0; i < connections; i++) {
        String key = "held" + i;
        holding.add(
            CompletableFuture.supplyAsync(() -> store.put(key, bytes("v"), 1, OWNER), callers));
      }
      try (Connection watcher = DriverManager.getConnection(url);
          Statement watch = watcher.createStatement()) {
        await("every pooled connection waiting for the table lock")
            .atMost(Timing.AWAIT)
            .pollInterval(Timing.POLL)
            .until(() -> Integer.parseInt(single(watch, LOCK_WAITERS)) == connections);
      }

      CompletableFuture<WriteResult> starved =
          CompletableFuture.supplyAsync(() -> store.put("starved", bytes("v"), 1, OWNER), callers);

      assertChangedNothing(starved, "no database connection free");
      other.commit();
      for (CompletableFuture<WriteResult> write : holding) {
        assertThat(write.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo(new WriteResult.Accepted(1));
      }
      assertThat(store.get("starved")).isEmpty();
    }
  }

  private static final String LOCK_WAITERS =
      "SELECT count(*) FROM pg_stat_activity"
          + " WHERE datname = current_database() AND wait_event_type = 'Lock'";

  private void assertGivesUpOnLockedRow(StoreTimeouts timeouts, String sqlState) throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    try (JdbcFencedStore store = JdbcFencedStore.open(url, timeouts);
        Connection other = DriverManager.getConnection(url);
        Statement statement = other.createStatement()) {
      store.put("k", bytes("v1"), 1, OWNER);
      other.setAutoCommit(false);
      statement.execute("SELECT * FROM objects WHERE id = 'k' FOR UPDATE");

      CompletableFuture<WriteResult> blocked =
          CompletableFuture.supplyAsync(() -> store.put("k", bytes("v2"), 2, OWNER), callers);

      StoreException failure = assertChangedNothing(blocked, "database gave up");
      assertThat(failure.getCause())
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(sqlState));
      other.commit();
      assertThat(store.get("k")).contains(new StoredObject(bytes("v1"), 1, OWNER));
    }
  }

  private static StoreException assertChangedNothing(
      CompletableFuture<WriteResult> call, String message) {
    // get, not failsWithin: failsWithin also passes when the call is still blocked.
    ExecutionException thrown =
        catchThrowableOfType(
            ExecutionException.class,
            () -> call.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS));
    assertThat(thrown).as("the call failed within the bound").isNotNull();
    assertThat(thrown.getCause()).isInstanceOf(StoreException.class);
    StoreException failure = (StoreException) thrown.getCause();
    assertThat(failure.changedNothing()).as("changedNothing").isTrue();
    assertThat(failure).hasMessageContaining(message).hasMessageContaining("nothing was changed");
    return failure;
  }

  private static String single(Statement statement, String sql) throws SQLException {
    try (ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getString(1);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}

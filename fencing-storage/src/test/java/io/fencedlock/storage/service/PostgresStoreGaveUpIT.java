package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.postgres.PostgresExtension;
import io.fencedlock.storage.store.StoreTimeouts;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store call that the database or the connection pool turns away before its commit is answered
 * 503 with {@code Retry-After} and {@code "changed":false}, and indeed changed nothing.
 */
final class PostgresStoreGaveUpIT {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  /** Short, so that the tests' locks outlast it; not scaled, it is the behaviour under test. */
  private static final Duration SHORT = Duration.ofMillis(300);

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private StorageService service;

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  @Test
  void put_tableLockedPastLockTimeout_503ChangedFalseAndNothingWritten() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    service = start(url, 1, new StoreTimeouts(Timing.AWAIT, SHORT, Timing.WORKLOAD));

    HttpResponse<String> answer;
    try (DatabaseLock lock = DatabaseLock.hold(url)) {
      answer = putAsync("k").get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    assertNothingChanged(answer);
    assertThat(get("k").statusCode()).isEqualTo(404);
    assertThat(meters.get(ServiceMetrics.STORE_GAVE_UP).tag("endpoint", "object_put").counter())
        .extracting(counter -> counter.count())
        .isEqualTo(1.0);
  }

  @Test
  void put_noDatabaseConnectionFree_503ChangedFalseAndNeverWritten() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    int connections = 8; // PostgreSQL's pool size
    service =
        start(url, connections + 1, new StoreTimeouts(SHORT, Timing.WORKLOAD, Timing.WORKLOAD));

    List<CompletableFuture<HttpResponse<String>>> holding = new ArrayList<>();
    HttpResponse<String> starved;
    try (DatabaseLock lock = DatabaseLock.hold(url);
        Connection watcher = DriverManager.getConnection(url);
        Statement watch = watcher.createStatement()) {
      for (int i = 0; i < connections; i++) {
        holding.add(putAsync("held" + i));
      }
      await("every pooled connection waiting for the table lock")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> lockWaiters(watch) == connections);

      starved = putAsync("starved").get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    assertNothingChanged(starved);
    assertThat(starved.body()).contains("no database connection free");
    for (CompletableFuture<HttpResponse<String>> write : holding) {
      assertThat(write.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode())
          .isEqualTo(200);
    }
    assertThat(get("starved").statusCode()).isEqualTo(404);
  }

  private StorageService start(String url, int threads, StoreTimeouts timeouts) {
    return StorageService.start(
        StorageConfig.builder()
            .jdbcUrl(url)
            .workerThreads(threads)
            .storeTimeouts(timeouts)
            .meterRegistry(meters)
            .build());
  }

  private static int lockWaiters(Statement watch) throws Exception {
    try (ResultSet row =
        watch.executeQuery(
            "SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
      row.next();
      return row.getInt(1);
    }
  }

  private static void assertNothingChanged(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.headers().firstValue("Retry-After")).contains("1");
    JsonObject json = JsonParser.parseString(answer.body()).getAsJsonObject();
    assertThat(json.get("changed").getAsBoolean()).isFalse();
    assertThat(json.get("error").getAsString())
        .startsWith("storage busy: ")
        .contains("nothing was changed");
  }

  private CompletableFuture<HttpResponse<String>> putAsync(String key) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(service.url() + "/objects/" + key))
            .timeout(Timing.AWAIT)
            .header(StorageProtocol.TOKEN_HEADER, "1")
            .header(StorageProtocol.OWNER_HEADER, OWNER)
            .PUT(HttpRequest.BodyPublishers.ofString("v"))
            .build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String key) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(service.url() + "/objects/" + key))
            .timeout(Timing.AWAIT)
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}

package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.postgres.PostgresExtension;
import io.fencedlock.storage.store.JdbcFencedStore;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Graceful stop with requests in flight, on PostgreSQL (whose write lock a test can hold from a
 * second connection, see {@link DatabaseLock}): a running write finishes and is acknowledged, new
 * connections are refused, and {@code close()} returns within its bound even when a write cannot
 * finish, without acknowledging it.
 */
final class StorageServiceStopIT {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void close_writeRunning_finishesAndAcknowledgesItThenRefusesConnections() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    StorageService service = start(url, meters, Timing.AWAIT);
    CompletableFuture<HttpResponse<String>> running;
    CompletableFuture<Void> closing;
    try (DatabaseLock lock = DatabaseLock.hold(url)) {
      running = putAsync(service.url(), 7);
      awaitRunning(meters);
      closing = CompletableFuture.runAsync(service::close);
      await("the connector closed")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> refusesConnections(service.url()));
    }

    assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode())
        .isEqualTo(200);
    closing.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    try (JdbcFencedStore store = JdbcFencedStore.open(url)) {
      assertThat(store.get("k"))
          .hasValueSatisfying(object -> assertThat(object.token()).isEqualTo(7));
    }
  }

  @Test
  void close_writeStuckPastGrace_returnsAndDoesNotAcknowledgeIt() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    StorageService service = start(url, meters, Timing.scaled(Duration.ofMillis(500)));
    CompletableFuture<HttpResponse<String>> stuck;
    try (DatabaseLock lock = DatabaseLock.hold(url)) {
      stuck = putAsync(service.url(), 7);
      awaitRunning(meters);

      CompletableFuture.runAsync(service::close)
          .get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    // The connection was closed under it (or, at most, it was refused): never a 200.
    assertThat(stuck)
        .failsWithin(Timing.AWAIT)
        .withThrowableThat()
        .withCauseInstanceOf(IOException.class);
  }

  /**
   * An application that restarts the service in-process keeps one registry: the closed service's
   * gauges must go with it, or they keep reading its stopped store threads (and keep them from
   * being collected) while the new service's gauges are never registered.
   */
  @Test
  void close_thenRestartOnSameRegistry_gaugesReadTheNewService() throws Exception {
    String url = POSTGRES.newDatabaseUrl();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    start(url, meters, Timing.AWAIT).close();
    assertThat(meters.find(ServiceMetrics.RUNNING).gauges()).isEmpty();
    assertThat(meters.find(ServiceMetrics.QUEUED).gauges()).isEmpty();

    try (StorageService restarted = start(url, meters, Timing.AWAIT)) {
      CompletableFuture<HttpResponse<String>> running;
      try (DatabaseLock lock = DatabaseLock.hold(url)) {
        running = putAsync(restarted.url(), 7);
        awaitRunning(meters);
      }
      assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode())
          .isEqualTo(200);
    }
  }

  private static StorageService start(String url, SimpleMeterRegistry meters, Duration grace) {
    return StorageService.start(
        StorageConfig.builder().jdbcUrl(url).meterRegistry(meters).stopGrace(grace).build());
  }

  private static void awaitRunning(SimpleMeterRegistry meters) {
    await("a write waiting for the table lock")
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .until(() -> meters.get(ServiceMetrics.RUNNING).gauge().value() == 1);
  }

  private static boolean refusesConnections(URI base) {
    try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
      return false;
    } catch (IOException refused) {
      return true;
    }
  }

  private CompletableFuture<HttpResponse<String>> putAsync(URI base, long token) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "/objects/k"))
            .timeout(Timing.AWAIT)
            .header(StorageProtocol.TOKEN_HEADER, Long.toString(token))
            .header(StorageProtocol.OWNER_HEADER, OWNER)
            .PUT(HttpRequest.BodyPublishers.ofString("v" + token))
            .build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
  }
}

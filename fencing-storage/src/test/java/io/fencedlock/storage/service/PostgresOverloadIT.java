package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.storage.Stats;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.storage.postgres.PostgresExtension;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link OverloadContract} on a private PostgreSQL server, and the overload cases that need the
 * store slow at a known moment: a second connection holds the table's write lock. SQLite cannot
 * have them: the service itself always holds its write lock (see {@link DatabaseLock}).
 */
final class PostgresOverloadIT extends OverloadContract {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Override
  String newDatabaseUrl() {
    return POSTGRES.newDatabaseUrl();
  }

  @Test
  void put_queueFull_503WithRetryAfterAndNothingChanged() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    start(1, 1, meters);
    FencedStorageClient client = FencedStorageClient.create(service.url());
    client.put("k", value(1), 1, OWNER);

    CompletableFuture<HttpResponse<String>> running;
    CompletableFuture<HttpResponse<String>> queued;
    Outcome refused;
    try (DatabaseLock lock = DatabaseLock.hold(jdbcUrl)) {
      running = putAsync("k", 2);
      await("a store call waiting for the lock")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> meters.get(ServiceMetrics.RUNNING).gauge().value() == 1);
      queued = putAsync("k", 3);
      await("a request in the queue")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> meters.get(ServiceMetrics.QUEUED).gauge().value() == 1);

      refused = put("k", 4);
    }

    assertNothingChangedAnswer(refused);
    assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode())
        .isEqualTo(200);
    assertThat(queued.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode())
        .isEqualTo(200);
    assertThat(client.get("k")).contains(new StoredObject(value(3), 3, OWNER));
    assertThat(client.stats()).isEqualTo(new Stats(3, 0, 0));
    assertThat(meters.get(ServiceMetrics.OVERLOADS).tag("endpoint", "object_put").counter().count())
        .isEqualTo(1);
  }

  /**
   * Writes queued behind a store call that waits for a lock: Jetty's idle timeout does not fire
   * while a request waits for the store, so only the queue timeout keeps them from running long
   * after their clients were told nothing, or gave up. The one still waiting learns that nothing
   * changed; the one that gave up changes nothing.
   */
  @Test
  void put_waitedLongerThanQueueTimeout_503NothingChangedAndNeverApplied() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    start(1, 2, meters, QUEUE_TIMEOUT);
    FencedStorageClient client = FencedStorageClient.create(service.url());
    client.put("k", value(1), 1, OWNER);

    CompletableFuture<HttpResponse<String>> running;
    CompletableFuture<HttpResponse<String>> waiting;
    CompletableFuture<HttpResponse<String>> gaveUp;
    try (DatabaseLock lock = DatabaseLock.hold(jdbcUrl)) {
      running = putAsync("k", 2);
      await("a store call waiting for the lock")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> meters.get(ServiceMetrics.RUNNING).gauge().value() == 1);
      waiting = putAsync("k", 3);
      gaveUp =
          http.sendAsync(request("k", 4, IMPATIENT_CLIENT), HttpResponse.BodyHandlers.ofString());
      await("two requests in the queue")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> meters.get(ServiceMetrics.QUEUED).gauge().value() == 2);

      // Both queued requests have now waited longer than the queue timeout.
      assertThat(gaveUp)
          .failsWithin(Timing.AWAIT)
          .withThrowableThat()
          .withCauseInstanceOf(HttpTimeoutException.class);
    }

    assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).statusCode())
        .isEqualTo(200);
    HttpResponse<String> skipped = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertNothingChangedAnswer(
        new Outcome(
            3,
            skipped.statusCode(),
            skipped.headers().firstValue("Retry-After").orElse(null),
            skipped.body()));
    assertThat(skipped.body()).contains("queue timeout");
    assertThat(client.get("k")).contains(new StoredObject(value(2), 2, OWNER));
    assertThat(client.stats()).isEqualTo(new Stats(2, 0, 0));
    assertThat(
            meters.get(ServiceMetrics.EXPIRED).tag("endpoint", "object_put").counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum())
        .isEqualTo(2.0);
    assertThat(meters.find(ServiceMetrics.OVERLOADS).counters()).isEmpty();
  }
}

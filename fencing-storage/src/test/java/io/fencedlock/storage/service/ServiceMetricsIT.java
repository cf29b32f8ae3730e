package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meters the storage README documents, in a {@link SimpleMeterRegistry}, after real requests.
 * Overloads and timeouts are counted in the tests that cause them ({@code OverloadContract}, {@code
 * SlowClientsIT}).
 */
final class ServiceMetricsIT {
  private static final String A = "0123456789abcdef0123456789abcdef";
  private static final String B = "fedcba9876543210fedcba9876543210";

  @TempDir Path dir;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private StorageService service;
  private FencedStorageClient client;

  @BeforeEach
  void start() {
    service =
        StorageService.start(
            StorageConfig.builder()
                .jdbcUrl("jdbc:sqlite:" + dir.resolve("metrics.db"))
                .meterRegistry(meters)
                .build());
    client = FencedStorageClient.create(service.url());
  }

  @AfterEach
  void stop() {
    service.close();
  }

  @Test
  void writes_eachOutcome_countedByOperationAndResult() {
    client.put("k", bytes("1"), 5, A);
    client.put("k", bytes("2"), 4, B);
    client.put("k", bytes("3"), 5, B);
    client.fence("k", 6, A);

    assertThat(writes("put", "accepted")).isEqualTo(1);
    assertThat(writes("put", "rejected_stale")).isEqualTo(1);
    assertThat(writes("put", "alarm")).isEqualTo(1);
    assertThat(writes("fence", "accepted")).isEqualTo(1);
  }

  @Test
  void requests_answered_timedByEndpointAndStatus() {
    client.put("k", bytes("1"), 5, A);
    client.put("k", bytes("2"), 4, A);
    client.get("k");
    client.get("absent");
    client.isHealthy();
    client.stats();

    // A request is timed when its response's last byte has been written, which can be just after
    // the client has read it: wait (bounded) until every answer has been timed.
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .untilAsserted(
            () -> {
              assertThat(requests("object_put", "200")).isEqualTo(1);
              assertThat(requests("object_put", "409")).isEqualTo(1);
              assertThat(requests("object_get", "200")).isEqualTo(1);
              assertThat(requests("object_get", "404")).isEqualTo(1);
              assertThat(requests("health", "200")).isEqualTo(1);
              assertThat(requests("stats", "200")).isEqualTo(1);
            });
    assertThat(meters.get(ServiceMetrics.REQUESTS).tag("endpoint", "object_put").timers())
        .allSatisfy(
            timer ->
                assertThat(timer.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS))
                    .isPositive());
    assertThat(meters.get(ServiceMetrics.QUEUED).gauge().value()).isZero();
    assertThat(meters.get(ServiceMetrics.RUNNING).gauge().value()).isZero();
  }

  private double writes(String operation, String result) {
    return meters
        .get(ServiceMetrics.WRITES)
        .tag("operation", operation)
        .tag("result", result)
        .counter()
        .count();
  }

  private long requests(String endpoint, String status) {
    return meters
        .find(ServiceMetrics.REQUESTS)
        .tag("endpoint", endpoint)
        .tag("status", status)
        .timers()
        .stream()
        .mapToLong(Timer::count)
        .sum();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }
}

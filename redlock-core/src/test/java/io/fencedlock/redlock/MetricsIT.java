package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.micrometer.MicrometerMetrics;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The client's meters in a Micrometer registry, against real nodes. */
final class MetricsIT {

  @Test
  void meters_acquireExtendReleaseRenewalAndLoss_areRecordedWithTheirTags() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (RedisNodes nodes = RedisNodes.start(5);
        Redlock redlock =
            Redlock.create(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(Timing.scaled(Duration.ofMillis(100)))
                    .connectTimeout(Timing.AWAIT)
                    .metrics(MicrometerMetrics.of(registry, "test"))
                    .build())) {
      Lease lease = redlock.acquire("metrics:one", Duration.ofSeconds(10), LockTiming.RETRY_WAIT);
      lease.extend(Duration.ofSeconds(10));
      lease.release();
      Lease capped =
          redlock
              .acquire("metrics:two", Timing.scaled(Duration.ofSeconds(1)), LockTiming.RETRY_WAIT)
              .keepAlive(Renewal.defaults().maxRenewals(1));
      assertThat(capped.lost().toCompletableFuture()).succeedsWithin(Timing.AWAIT);
      assertThat(redlock.tryAcquire("metrics:two", Duration.ofSeconds(10)))
          .isEmpty(); // still locked: refused

      assertThat(
              registry
                  .get("redlock.acquire")
                  .tags("client", "test", "outcome", "acquired")
                  .timer()
                  .count())
          .isEqualTo(2);
      assertThat(registry.get("redlock.acquire").tags("outcome", "failed").timer().count())
          .isEqualTo(1);
      assertThat(registry.get("redlock.extend").tags("outcome", "confirmed").timer().count())
          .isEqualTo(2);
      assertThat(registry.get("redlock.release").timer().count()).isEqualTo(1);
      assertThat(registry.get("redlock.renewals").counter().count()).isEqualTo(1);
      assertThat(
              registry.get("redlock.leases.lost").tags("reason", "renewal_limit").counter().count())
          .isEqualTo(1);
      assertThat(registry.get("redlock.node.replies").tags("status", "granted").counter().count())
          .isGreaterThanOrEqualTo(6);
      assertThat(registry.get("redlock.node.replies").tags("status", "refused").counter().count())
          .isGreaterThanOrEqualTo(3);
      assertThat(registry.get("redlock.handoffs").counter().count()).isZero();
      assertThat(registry.get("redlock.nodes.excluded").counter().count()).isZero();
    }
  }

  @Test
  void keepAlive_withAMetricsSinkThatThrows_staysHeldAcrossRenewalsAndReleases() {
    Duration ttl = Timing.scaled(Duration.ofSeconds(1));
    try (RedisNodes nodes = RedisNodes.start(5);
        Redlock redlock =
            Redlock.create(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(Timing.scaled(Duration.ofMillis(100)))
                    .connectTimeout(Timing.AWAIT)
                    .metrics(new ThrowingMetrics())
                    .build())) {
      Lease lease =
          redlock
              .acquire("metrics:throwing", ttl, LockTiming.RETRY_WAIT)
              .keepAlive(Renewal.defaults());

      // Five TTLs: about fifteen renewals, each of which calls the sink twice.
      await()
          .during(ttl.multipliedBy(5))
          .atMost(ttl.multipliedBy(7))
          .until(() -> lease.isValid() && !lease.lost().toCompletableFuture().isDone());

      assertThat(lease.release()).isTrue();
      Cluster.awaitNoKey(nodes, "metrics:throwing");
    }
  }

  @Test
  void metrics_none_isTheDefaultAndRecordsNothing() {
    assertThat(RedlockConfig.builder().nodes("redis://127.0.0.1:7001").build().metrics())
        .isSameAs(RedlockMetrics.NONE);
    assertThat(RedlockMetrics.NONE.enabled()).isFalse();
  }
}

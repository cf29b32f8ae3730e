package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lease validity follows the injected monotonic clock exactly: with a ticker that only moves when
 * told to, the arithmetic can be checked to the nanosecond against real nodes.
 */
final class FakeTickerLeaseIT {
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration DRIFT = Duration.ofMillis(102); // 1 % of 10 s + 2 ms
  private static RedisNodes nodes;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(3);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @Test
  void validity_followsTheTickerNotTheWallClock() {
    FakeTicker ticker = new FakeTicker();
    try (Redlock redlock = Redlock.create(Cluster.config(nodes).ticker(ticker).build())) {
      Lease lease = redlock.acquire("ticker:validity", TTL, Duration.ZERO);
      assertThat(lease.remainingValidity()).isEqualTo(TTL.minus(DRIFT));

      ticker.advance(Duration.ofSeconds(4));
      assertThat(lease.remainingValidity()).isEqualTo(Duration.ofSeconds(6).minus(DRIFT));

      assertThat(lease.extend(TTL)).isTrue();
      assertThat(lease.remainingValidity()).isEqualTo(TTL.minus(DRIFT));

      ticker.advance(TTL);
      assertThat(lease.isValid()).isFalse();
      assertThat(lease.remainingValidity()).isZero();
      assertThatThrownBy(() -> lease.extend(TTL)).isInstanceOf(LockExpiredException.class);
      assertThat(lease.release()).as("released after its validity ran out").isFalse();
    }
  }

  @Test
  void acquire_tickerJumpsPastTtlWhileTheNodesHoldTheRequest_failsAndCleansUp() {
    FakeTicker ticker = new FakeTicker();
    // A node timeout far longer than this test, so that the paused nodes are waited for.
    try (Redlock redlock =
        Redlock.create(
            RedlockConfig.builder()
                .nodes(nodes.uris())
                .ticker(ticker)
                .nodeTimeout(Duration.ofMinutes(1))
                .connectTimeout(Timing.AWAIT)
                .build())) {
      nodes.forEach(RedisNode::pause);
      CompletableFuture<Lease> acquiring =
          redlock.acquireAsync("ticker:late", TTL, Duration.ZERO).toCompletableFuture();

      ticker.advance(Duration.ofSeconds(11)); // past the TTL, while the lock step is on its way
      nodes.forEach(RedisNode::resume);

      assertThat(acquiring)
          .failsWithin(Timing.AWAIT)
          .withThrowableOfType(java.util.concurrent.ExecutionException.class)
          .withCauseInstanceOf(LockAcquisitionException.class)
          .withMessageContaining("longer than the lease's validity");
      await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, "ticker:late") == 0);
    } finally {
      nodes.forEach(
          node -> {
            if (node.isPaused()) {
              node.resume();
            }
          });
    }
  }
}

package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lease validity follows the injected monotonic clock exactly: with a ticker that only moves
 * when told to, the arithmetic can be checked to the nanosecond against real nodes.
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
  void acquire_tickerJumpsPastTtlDuringAcquire_failsAndCleansUp() {
    JumpingTicker ticker = new JumpingTicker(Duration.ofSeconds(11));
    try (Redlock redlock = Redlock.create(Cluster.config(nodes).ticker(ticker).build())) {
      ticker.armed = true;

      assertThatThrownBy(() -> redlock.acquire("ticker:late", TTL, Duration.ZERO))
          .isInstanceOf(LockAcquisitionException.class)
          .hasMessageContaining("longer than the lease's validity");
      assertThat(Cluster.holding(nodes, "ticker:late")).isZero();
    }
  }

  /** Jumps forward once, between the attempt's start reading and its validity check. */
  private static final class JumpingTicker implements Ticker {
    private final FakeTicker base = new FakeTicker();
    private final Duration jump;
    volatile boolean armed;
    private int readingsWhileArmed;

    JumpingTicker(Duration jump) {
      this.jump = jump;
    }

    @Override
    public synchronized long read() {
      if (armed && ++readingsWhileArmed == 3) { // 1: wait deadline, 2: attempt start, 3: finish
        base.advance(jump);
      }
      return base.read();
    }
  }
}

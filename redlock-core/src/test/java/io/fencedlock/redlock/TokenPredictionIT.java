package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The one-round-trip fenced acquire: a client that knows a resource's counter proposes the next
 * token in phase 1 and skips phase 2; a stale guess falls back to the two-phase acquire. Round
 * trips are counted on the servers: every script call is one EVALSHA per node, so one acquire +
 * release costs 5 + 5 calls on the fast path and at least 5 + 3 + 5 with phase 2.
 */
final class TokenPredictionIT {
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final int FAST_PATH_CALLS = 10;

  private static RedisNodes nodes;
  private String resource;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @BeforeEach
  void nameResource(TestInfo test) {
    resource = "predict:" + test.getTestMethod().orElseThrow().getName();
  }

  @Test
  void acquire_bySameClientAgain_writesThePredictedTokenInOneRoundTrip() {
    try (Redlock redlock = Redlock.create(Cluster.config(nodes).build())) {
      long first = cycle(redlock).token();

      Cycle second = cycle(redlock);
      Cycle third = cycle(redlock);

      assertThat(second.scriptCalls())
          .as("acquire + release, no phase 2")
          .isEqualTo(FAST_PATH_CALLS);
      assertThat(third.scriptCalls()).isEqualTo(FAST_PATH_CALLS);
      assertThat(second.token()).isEqualTo(first + 1);
      assertThat(third.token()).isEqualTo(first + 2);
      assertThat(Cluster.holdingValue(nodes, fenceKey(), Long.toString(third.token())))
          .isEqualTo(5);
    }
  }

  @Test
  void acquire_afterAnotherClientAdvancedTheCounter_fallsBackToPhase2AboveIt() {
    try (Redlock a = Redlock.create(Cluster.config(nodes).build());
        Redlock b = Redlock.create(Cluster.config(nodes).build())) {
      cycle(a);
      cycle(a);
      long bLast = 0;
      for (int i = 0; i < 3; i++) {
        bLast = cycle(b).token();
      }

      Cycle stale = cycle(a);
      Cycle next = cycle(a);

      assertThat(stale.token()).as("above every token b was issued").isGreaterThan(bLast);
      assertThat(stale.scriptCalls())
          .as("phase 2 ran on at least a quorum")
          .isGreaterThanOrEqualTo(FAST_PATH_CALLS + 3);
      assertThat(next.scriptCalls())
          .as("the fallback taught the client the counter")
          .isEqualTo(FAST_PATH_CALLS);
      assertThat(next.token()).isEqualTo(stale.token() + 1);
    }
  }

  @Test
  void refusedAttempt_teachesTheHoldersToken_soTheNextAcquireTakesOneRoundTrip() {
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock waiter = Redlock.create(Cluster.config(nodes).build())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      assertThat(waiter.tryAcquire(resource, TTL)).isEmpty();
      held.release();
      Cluster.awaitNoKey(nodes, resource);

      Cycle after = cycle(waiter);

      assertThat(after.token()).isEqualTo(held.fencingToken() + 1);
      assertThat(after.scriptCalls()).isEqualTo(FAST_PATH_CALLS);
    }
  }

  @Test
  void predictionSwitchedOff_everyAcquireRunsPhase2() {
    try (Redlock twoPhase = Redlock.create(Cluster.config(nodes).tokenPrediction(false).build())) {
      long first = cycle(twoPhase).token();
      Cycle again = cycle(twoPhase);

      assertThat(again.scriptCalls()).isGreaterThanOrEqualTo(FAST_PATH_CALLS + 3);
      assertThat(again.token()).isEqualTo(first + 1);
    }
  }

  @Test
  void unfencedClient_proposesNothing_andSendsNoScriptToAcquire() {
    try (Redlock plain = Redlock.create(Cluster.config(nodes).fencing(false).build())) {
      cycle(plain);
      Cycle again = cycle(plain);

      assertThat(again.scriptCalls())
          .as("SET NX PX to acquire, a script only to release")
          .isEqualTo(5);
      assertThat(Cluster.holding(nodes, fenceKey())).isZero();
    }
  }

  /** One acquire and release, once the previous release has landed everywhere. */
  private record Cycle(long token, long scriptCalls) {}

  private Cycle cycle(Redlock redlock) {
    Cluster.awaitNoKey(nodes, resource); // a release's slower deletes land after it returns
    long before = Cluster.evalshaCalls(nodes);
    Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
    lease.release();
    Cluster.awaitNoKey(nodes, resource);
    return new Cycle(
        lease.isFenced() ? lease.fencingToken() : -1, Cluster.evalshaCalls(nodes) - before);
  }

  private String fenceKey() {
    return "{" + resource + "}:fence";
  }
}

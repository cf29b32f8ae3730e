package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Leases kept alive by renewal, and the signal when renewal cannot keep them. */
final class RenewalIT {
  /** Short, so that many renewals happen while a test runs; far above loopback latency. */
  /**
   * Renewal needs room: a renewal window closes two node timeouts and 5 % before the validity does.
   */
  private static final Duration TTL = Timing.scaled(Duration.ofSeconds(1));

  private static RedisNodes nodes;
  private Redlock redlock;
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
  void setUp(TestInfo test) {
    resource = "renewal:" + test.getTestMethod().orElseThrow().getName();
    redlock = Redlock.create(renewing().build());
  }

  @AfterEach
  void tearDown() {
    Cluster.heal(nodes);
    redlock.close();
  }

  @Test
  void keepAlive_overTenTimesTheTtl_staysValidAndReleasesCleanly() {
    Lease lease =
        redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT).keepAlive(Renewal.defaults());

    await()
        .during(TTL.multipliedBy(10))
        .atMost(TTL.multipliedBy(12))
        .until(
            () -> lease.isValid() && Cluster.holdingValue(nodes, resource, lease.ownerId()) >= 3);

    assertThat(lease.release()).isTrue();
    Cluster.awaitNoKey(nodes, resource);
    assertEndedWithoutLoss(lease); // released, not lost
  }

  @Test
  void keepAlive_majorityPaused_signalsLossBeforeTheValidityRunsOut() {
    Lease lease =
        redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT).keepAlive(Renewal.defaults());
    List<String> events = new CopyOnWriteArrayList<>();
    CompletableFuture<LeaseLoss> lost = lease.lost().toCompletableFuture();
    lost.thenAccept(loss -> events.add("lost, valid=" + lease.isValid()));

    for (int i = 0; i < 3; i++) {
      nodes.node(i).pause();
    }

    LeaseLoss loss = awaitLoss(lost);
    assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_FAILED);
    assertThat(loss.validityLeft()).as("the signal came while validity was left").isPositive();
    assertThat(loss.outcomes())
        .as("what each node answered to the failed renewal")
        .extracting(NodeOutcome::node)
        .containsExactly(
            nodes.nodes().stream().map(n -> n.host() + ":" + n.port()).toArray(String[]::new));
    assertThat(loss.outcomes().subList(0, 3))
        .allMatch(o -> o.status() == NodeStatus.TIMED_OUT, "the paused nodes timed out");
    assertThat(events).containsExactly("lost, valid=false");
    assertThatThrownBy(lease::checkValid)
        .isInstanceOf(LockExpiredException.class)
        .hasMessageContaining("lost");
  }

  @Test
  void keepAlive_keyGoneOnAMajority_isLostAndNeverRecreatesTheKey() {
    Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
    lease.keepAlive(Renewal.defaults());
    for (int i = 0; i < 3; i++) {
      nodes.node(i).command("DEL", resource); // as if expired there
    }

    LeaseLoss loss = awaitLoss(lease.lost().toCompletableFuture());

    assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.NO_LONGER_HELD);
    for (int i = 0; i < 3; i++) {
      assertThat(nodes.node(i).command("EXISTS", resource)).isEqualTo(0L);
    }
    assertThat(lease.isValid()).isFalse();
  }

  @Test
  void keepAlive_maxRenewalsReached_isLostWithTheLimitBeforeTheValidityRunsOut() {
    long before = expiryReads();
    Lease lease =
        redlock
            .acquire(resource, TTL, LockTiming.RETRY_WAIT)
            .keepAlive(Renewal.defaults().maxRenewals(2));

    LeaseLoss loss = awaitLoss(lease.lost().toCompletableFuture());

    assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_LIMIT);
    assertThat(loss.detail()).contains("Renewal.maxRenewals");
    assertThat(loss.validityLeft()).isPositive();
    // Each renewal's extend.lua reads the key's PTTL once per node: two renewals, five nodes.
    await().atMost(Timing.AWAIT).until(() -> expiryReads() - before >= 10);
    assertThat(expiryReads() - before).isEqualTo(10);
  }

  @Test
  void keepAlive_renewalTtlLongerThanTheLeaseTtl_renewsInTimeAndKeepsTheLease() {
    Duration renewalTtl = TTL.multipliedBy(20);
    Lease lease =
        redlock
            .acquire(resource, TTL, LockTiming.RETRY_WAIT)
            .keepAlive(Renewal.defaults().ttl(renewalTtl));
    CompletableFuture<LeaseLoss> lost = lease.lost().toCompletableFuture();

    // The first renewal goes while the lease's own, shorter validity lasts, and gives it the long
    // one; until then the margin of the long TTL must not be applied to the short validity.
    await()
        .atMost(Timing.AWAIT)
        .until(() -> lost.isDone() || lease.remainingValidity().compareTo(TTL) > 0);

    assertThat(lost).as("lost: %s", lost.getNow(null)).isNotDone();
    assertThat(lease.remainingValidity()).isGreaterThan(TTL);
    assertThat(lease.release()).isTrue();
  }

  @Test
  void keepAlive_leaseTtlLeavingNoTimeToRenewBeforeALongerRenewalTtl_isRefusedNamingBoth() {
    Duration shortTtl = Timing.scaled(Duration.ofMillis(150));
    Duration renewalTtl = TTL.multipliedBy(20);
    Lease lease = redlock.acquire(resource, shortTtl, LockTiming.RETRY_WAIT);

    assertThatThrownBy(() -> lease.keepAlive(Renewal.defaults().ttl(renewalTtl)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(shortTtl.toString())
        .hasMessageContaining(renewalTtl.toString());
    lease.release();
  }

  @Test
  void keepAlive_releasedOrClientClosed_renewalStops() {
    Lease released =
        redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT).keepAlive(Renewal.defaults());
    Lease keptUntilClose =
        redlock.acquire(resource + ":2", TTL, LockTiming.RETRY_WAIT).keepAlive(Renewal.defaults());
    released.release();
    redlock.close();
    long reads = expiryReads();

    // A renewal would read the key's PTTL: none may happen for the TTL's length.
    await()
        .during(TTL.multipliedBy(2))
        .atMost(TTL.multipliedBy(3))
        .until(() -> expiryReads() == reads);
    assertEndedWithoutLoss(released);
    // Closing the client loses what it kept alive: the holder must stop, as for any loss.
    assertThat(awaitLoss(keptUntilClose.lost().toCompletableFuture()).reason())
        .isEqualTo(LeaseLoss.Reason.CLIENT_CLOSED);
    assertThat(keptUntilClose.isValid()).isFalse();
  }

  @Test
  void keepAlive_lateInTheLease_signalsTheLossWhileValidityIsLeft() {
    FakeTicker ticker = new FakeTicker();
    try (Redlock client = Redlock.create(renewing().ticker(ticker).build())) {
      Lease lease = client.acquire(resource, Duration.ofSeconds(1), LockTiming.RETRY_WAIT);
      ticker.advance(Duration.ofMillis(950)); // too late for any renewal to finish in time

      lease.keepAlive(Renewal.defaults());

      LeaseLoss loss = awaitLoss(lease.lost().toCompletableFuture());
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_FAILED);
      assertThat(loss.validityLeft()).isPositive();
    }
  }

  @Test
  void keepAlive_holderPausedPastItsValidity_reportsTheLeaseExpired() {
    FakeTicker ticker = new FakeTicker();
    try (Redlock client = Redlock.create(renewing().ticker(ticker).build())) {
      Lease lease =
          client
              .acquire(resource, Duration.ofSeconds(10), LockTiming.RETRY_WAIT)
              .keepAlive(Renewal.defaults());

      ticker.advance(Duration.ofSeconds(30)); // this process "paused" through the whole validity

      LeaseLoss loss = awaitLoss(lease.lost().toCompletableFuture());
      assertThat(loss.reason()).isIn(LeaseLoss.Reason.EXPIRED, LeaseLoss.Reason.NO_LONGER_HELD);
      assertThat(loss.validityLeft()).isZero();
      assertThat(lease.isValid()).isFalse();
    }
  }

  @Test
  void keepAlive_renewalTtlLeavingNoTimeToRenew_throws() {
    Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
    assertThatThrownBy(
            () -> lease.keepAlive(Renewal.defaults().ttl(Timing.scaled(Duration.ofMillis(100)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no time to renew");
    lease.release();
  }

  @Test
  void keepAlive_twice_throws() {
    Lease lease =
        redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT).keepAlive(Renewal.defaults());
    assertThatThrownBy(() -> lease.keepAlive(Renewal.defaults()))
        .isInstanceOf(IllegalStateException.class);
    lease.release();
  }

  private static LeaseLoss awaitLoss(CompletableFuture<LeaseLoss> lost) {
    assertThat(lost).succeedsWithin(Timing.AWAIT);
    return lost.join();
  }

  /** The loss stage ended with a cancellation: the lease ended, but was not lost. */
  private static void assertEndedWithoutLoss(Lease lease) {
    CompletableFuture<Throwable> ending =
        lease.lost().toCompletableFuture().handle((loss, failure) -> failure);
    assertThat(ending).succeedsWithin(Timing.AWAIT);
    Throwable ended = ending.join();
    assertThat(ended).isNotNull();
    assertThat(
            ended instanceof java.util.concurrent.CancellationException
                || ended.getCause() instanceof java.util.concurrent.CancellationException)
        .as(String.valueOf(ended))
        .isTrue();
  }

  private static long expiryReads() {
    return Cluster.commandCalls(nodes, "pttl");
  }

  /** A client whose node timeout leaves renewal room in a TTL of about a second. */
  private static RedlockConfig.Builder renewing() {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(Timing.scaled(Duration.ofMillis(100)))
        .connectTimeout(Timing.AWAIT)
        .retryDelay(Duration.ofMillis(20))
        .retryJitter(Duration.ofMillis(20));
  }
}

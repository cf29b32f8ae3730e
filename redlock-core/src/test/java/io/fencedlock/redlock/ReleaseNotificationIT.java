package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Waiting acquires hear about releases over pub/sub. The retry delay is far longer than the await
 * bound, so a waiter granted within the bound was woken by the notification. Holders and waiters
 * share one client here, with local handoffs off so that releases are announced (HandoffIT covers
 * handoffs).
 */
final class ReleaseNotificationIT {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration NEVER_IN_THIS_TEST = Timing.scaled(Duration.ofMinutes(5));
  private static RedisNodes nodes;
  private static Redlock redlock;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
    redlock =
        Redlock.create(
            RedlockConfig.builder()
                .nodes(nodes.uris())
                .nodeTimeout(LockTiming.NODE_TIMEOUT)
                .retryDelay(NEVER_IN_THIS_TEST)
                .retryJitter(Duration.ZERO)
                .maxLocalHandoffs(0)
                .build());
  }

  @AfterAll
  static void stopNodes() {
    redlock.close();
    nodes.close();
  }

  @Test
  void acquire_heldLockReleased_grantedWithoutWaitingForTheRetryDelay(TestInfo test)
      throws Exception {
    String resource = "notify:" + test.getDisplayName();
    Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
    CompletableFuture<Lease> waiter =
        redlock
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    await().atMost(Timing.AWAIT).until(() -> subscribers(resource) == 5);

    holder.release();

    Lease granted = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(granted.fencingToken()).isGreaterThan(holder.fencingToken());
    granted.release();
  }

  /**
   * A release that first reaches only a minority must not wake the waiter: a retry then would fail
   * on the paused majority and sleep until its (endless) retry delay, deaf to the same release's
   * later copies. Unfenced, every attempt sends one SET to the lead node (a contended retry asks it
   * first, and here it is node 0, which is not paused), so node 0's SET count counts the waiter's
   * attempts: after the release, exactly one, once the quorum-th copy has arrived.
   */
  @Test
  void acquire_releaseReachesAMinorityFirst_triesOnceAQuorumHasReleased(TestInfo test)
      throws Exception {
    String resource = Cluster.resourceLedBy(nodes, 0, "notify:" + test.getDisplayName());
    // Long enough that the one retry, sent to five live nodes, does not time out on a loaded
    // machine: nothing but the endless retry delay would wake the waiter again.
    Duration nodeTimeout = Timing.scaled(Duration.ofSeconds(1));
    try (Redlock patient =
        Redlock.create(
            RedlockConfig.builder()
                .nodes(nodes.uris())
                .nodeTimeout(nodeTimeout)
                .fencing(false)
                .retryDelay(NEVER_IN_THIS_TEST)
                .retryJitter(Duration.ZERO)
                .maxLocalHandoffs(0)
                .build())) {
      long setsBefore = Cluster.commandCalls(nodes.node(0), "set");
      Lease holder = patient.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      CompletableFuture<Lease> waiter =
          patient
              .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
              .toCompletableFuture();
      // The holder's SET and the waiter's two attempts (the first, and the one once subscribed).
      await()
          .atMost(Timing.AWAIT)
          .until(
              () ->
                  subscribers(resource) == 5
                      && Cluster.commandCalls(nodes.node(0), "set") == setsBefore + 3);
      nodes.node(2).pause();
      nodes.node(3).pause();
      nodes.node(4).pause();

      holder.releaseAsync(); // deleted and announced at once on nodes 0 and 1 only
      await()
          .atMost(Timing.AWAIT)
          .until(
              () ->
                  Cluster.holding(nodes.node(0), resource)
                          + Cluster.holding(nodes.node(1), resource)
                      == 0);
      nodes.node(2).resume();
      nodes.node(3).resume();
      nodes.node(4).resume();

      Lease granted = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(Cluster.commandCalls(nodes.node(0), "set") - setsBefore)
          .as("SETs on node 0")
          .isEqualTo(4);
      granted.release();
    }
  }

  @Test
  void acquire_releasedWhileSubscribing_stillGranted(TestInfo test) throws Exception {
    String resource = "notify:" + test.getDisplayName();
    Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
    CompletableFuture<Lease> waiter =
        redlock
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();

    holder.release(); // may land before, during or after the waiter subscribes

    Lease granted = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(granted.isValid()).isTrue();
    granted.release();
  }

  @Test
  void acquire_granted_unsubscribesFromEveryNode(TestInfo test) throws Exception {
    String resource = "notify:" + test.getDisplayName();
    Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
    CompletableFuture<Lease> first =
        redlock
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    CompletableFuture<Lease> second =
        redlock
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    await().atMost(Timing.AWAIT).until(() -> subscribers(resource) == 5);

    holder.release();
    Lease next =
        CompletableFuture.anyOf(first, second)
            .thenApply(Lease.class::cast)
            .get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    next.release();
    List.of(first, second)
        .forEach(f -> f.thenAccept(Lease::releaseAsync)); // never block on an I/O thread
    CompletableFuture.allOf(first, second).get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

    await().atMost(Timing.AWAIT).until(() -> subscribers(resource) == 0);
  }

  private static long subscribers(String resource) {
    return Cluster.releaseSubscribers(nodes, resource);
  }
}

package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Local handoffs: a lease released while an acquire of the same client waits passes the lock to it,
 * one script per node deleting the old key and locking for the waiter, unannounced. Retry delays
 * are far longer than the await bound, so a waiter granted within the bound was handed the lock or
 * woken by an announcement; the tests tell those apart by counting the PUBLISH commands the nodes
 * ran (scripts' included).
 */
final class HandoffIT {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration NEVER_IN_THIS_TEST = Timing.scaled(Duration.ofMinutes(5));
  private static RedisNodes nodes;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @BeforeEach
  void heal() {
    Cluster.heal(nodes);
  }

  @ParameterizedTest(name = "fenced = {0}")
  @ValueSource(booleans = {true, false})
  void release_whileAnAcquireOfTheSameClientWaits_locksForItInOneUnannouncedScriptPerNode(
      boolean fenced) throws Exception {
    String resource = "handoff:one-script:" + fenced;
    try (Redlock redlock =
        client(fenced, RedlockConfig.DEFAULT_MAX_LOCAL_HANDOFFS, LockTiming.NODE_TIMEOUT)) {
      Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiter = waitFor(redlock, resource);
      long scripts = Cluster.evalshaCalls(nodes);
      long announcements = publishes();

      assertThat(holder.release()).isTrue();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      if (fenced) {
        assertThat(next.fencingToken()).isEqualTo(holder.fencingToken() + 1);
      }
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, next.ownerId()) == 5);
      assertThat(Cluster.evalshaCalls(nodes) - scripts)
          .as("scripts run: one per node, carrying both the release and the acquire")
          .isEqualTo(5);
      assertThat(publishes() - announcements).as("announcements").isZero();
      next.release();
    }
  }

  @Test
  void noLocalHandoffs_releaseIsAnnouncedByTheLeadAloneAndTheWaiterWokenByIt() throws Exception {
    String resource = "handoff:off";
    try (Redlock redlock = client(true, 0, LockTiming.NODE_TIMEOUT)) {
      Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiter = waitFor(redlock, resource);
      long announcements = publishes();

      holder.release();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      // fenced, and the lease took the lead: the lead names the waiting (queued) client
      assertThat(publishes() - announcements).as("announcements").isEqualTo(1);
      next.release();
    }
  }

  @Test
  void handoffsInARow_upToTheCap_thenTheReleaseIsAnnounced() throws Exception {
    String resource = "handoff:cap";
    try (Redlock redlock = client(true, 2, LockTiming.NODE_TIMEOUT)) {
      Lease lease = redlock.acquire(resource, TTL, Duration.ZERO);
      for (int release = 1; release <= 3; release++) {
        CompletableFuture<Lease> waiter = waitFor(redlock, resource);
        long announcements = publishes();

        lease.release();

        Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        long announced = publishes() - announcements;
        if (release <= 2) {
          assertThat(announced)
              .as("announcements of release %d, a local handoff", release)
              .isZero();
        } else {
          assertThat(announced)
              .as("announcements of release %d, past the cap", release)
              .isPositive();
        }
        lease = next;
      }
      lease.release();
    }
  }

  @Test
  void handoffFailingOnAPausedMajority_isAnnouncedOnceTheNodesAnswer() throws Exception {
    String resource = "handoff:paused-majority";
    // Long enough that the waiter's retry after the wake-up does not time out on a loaded
    // machine: nothing but the (endless) retry delay would wake it again.
    Duration nodeTimeout = Timing.scaled(Duration.ofSeconds(1));
    try (Redlock redlock = client(true, RedlockConfig.DEFAULT_MAX_LOCAL_HANDOFFS, nodeTimeout)) {
      Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiter = waitFor(redlock, resource);
      nodes.node(2).pause();
      nodes.node(3).pause();
      nodes.node(4).pause();

      long scriptsOn0 = Cluster.evalshaCalls(nodes.node(0));
      long scriptsOn1 = Cluster.evalshaCalls(nodes.node(1));

      // The waiter's attempt takes nodes 0 and 1 and times out on the others; its cleanup
      // must announce, or the release it carried would never be heard of.
      holder.release();
      assertThat(waiter).isNotDone();
      assertThat(Cluster.evalshaCalls(nodes.node(0)) - scriptsOn0)
          .as("scripts on node 0: the handoff's lock step, then its cleanup")
          .isEqualTo(2);
      assertThat(Cluster.evalshaCalls(nodes.node(1)) - scriptsOn1)
          .as("scripts on node 1")
          .isEqualTo(2);
      nodes.node(2).resume();
      nodes.node(3).resume();
      nodes.node(4).resume();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
      next.release();
    }
  }

  /**
   * A sink that throws must not break a handoff mid-step: the waiter was claimed by the release,
   * and nothing else wakes it (its retry delay is endless).
   */
  @Test
  void release_withAMetricsSinkThatThrows_handsOverReleasesEverywhereAndClosesPromptly()
      throws Exception {
    String resource = "handoff:throwing-metrics";
    try (Redlock redlock =
        client(
            true,
            RedlockConfig.DEFAULT_MAX_LOCAL_HANDOFFS,
            LockTiming.NODE_TIMEOUT,
            new ThrowingMetrics())) {
      Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiter = waitFor(redlock, resource);

      assertThat(holder.release()).isTrue();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(next.fencingToken()).isEqualTo(holder.fencingToken() + 1);
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, next.ownerId()) == 5);
      assertThat(next.release()).isTrue();
      Cluster.awaitNoKey(nodes, resource);
      assertThat(redlock.closeAsync().toCompletableFuture())
          .as("closing waits for no stranded handoff")
          .succeedsWithin(Timing.AWAIT);
    }
  }

  @Test
  void close_whileAHandoffIsInFlight_waitsForItsCleanup() {
    String resource = "handoff:close";
    Redlock redlock =
        client(true, RedlockConfig.DEFAULT_MAX_LOCAL_HANDOFFS, LockTiming.NODE_TIMEOUT);
    Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
    waitFor(redlock, resource);
    nodes.node(2).pause();
    nodes.node(3).pause();
    nodes.node(4).pause();

    holder.releaseAsync(); // the waiter's attempt now waits for the paused nodes
    redlock.close();
    nodes.node(2).resume();
    nodes.node(3).resume();
    nodes.node(4).resume();

    // Closing waited for the failed attempt's cleanup, sent everywhere before the connections
    // closed; the paused nodes run it after the lock step queued ahead of it. Otherwise keys
    // would stay until their TTL, far beyond the await bound.
    Cluster.awaitNoKey(nodes, resource);
  }

  /**
   * A client whose subscriptions, once a wait ended, linger until it closes ({@link HeldTasks}).
   */
  private static Redlock client(boolean fenced, int maxLocalHandoffs, Duration nodeTimeout) {
    return client(fenced, maxLocalHandoffs, nodeTimeout, RedlockMetrics.NONE);
  }

  private static Redlock client(
      boolean fenced, int maxLocalHandoffs, Duration nodeTimeout, RedlockMetrics metrics) {
    RedlockConfig config =
        RedlockConfig.builder()
            .nodes(nodes.uris())
            .nodeTimeout(nodeTimeout)
            .connectTimeout(Timing.AWAIT)
            .retryDelay(NEVER_IN_THIS_TEST)
            .retryJitter(Duration.ZERO)
            .fencing(fenced)
            .maxLocalHandoffs(maxLocalHandoffs)
            .metrics(metrics)
            .build();
    return Redlock.create(config, RespNodeDriver.open(config), HeldTasks.sweeps().environment());
  }

  /**
   * Starts an acquire of {@code resource}, which must be held by the same client, and returns once
   * it waits between attempts, where a release can claim it. It is the resource's only waiter. Its
   * first attempt fails and subscribes; the confirmed subscription starts a second attempt at once,
   * which fails too, and then the waiter waits for its (endless) retry delay. (If the client still
   * listens on the lock's channels after an earlier wait of the test, the subscription is confirmed
   * already.) The second attempt, contended, runs one script (fenced: the lock step; unfenced: the
   * cleanup after SET NX): it asks the lead node alone, which refuses. The first runs 5, one per
   * node, or, when the client met a rival on the lock in the last second (an earlier waiter of the
   * same test), one like the second. The nodes count them before the client has read the last
   * replies; the few milliseconds the following INFO requests take cover that.
   */
  private static CompletableFuture<Lease> waitFor(Redlock redlock, String resource) {
    RedisNode lead = Cluster.lead(nodes, resource);
    long scripts = Cluster.evalshaCalls(nodes);
    long onLead = Cluster.evalshaCalls(lead);
    CompletableFuture<Lease> waiter =
        redlock
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 5);
    await()
        .atMost(Timing.AWAIT)
        .until(
            () -> {
              long all = Cluster.evalshaCalls(nodes) - scripts;
              return Cluster.evalshaCalls(lead) - onLead == 2 && (all == 2 || all == 6);
            });
    assertThat(waiter).isNotDone();
    return waiter;
  }

  private static long publishes() {
    return Cluster.commandCalls(nodes, "publish");
  }
}

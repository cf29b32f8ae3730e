package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
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
 * Local handoffs: a lease released while an acquire of the same client waits passes the lock
 * to it, one script per node deleting the old key and locking for the waiter, unannounced.
 * Retry delays are far longer than the await bound, so a waiter granted within the bound was
 * handed the lock or woken by an announcement; the tests tell those apart by counting the
 * PUBLISH commands the nodes ran (scripts' included).
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
  void release_whileAnAcquireOfTheSameClientWaits_locksForItInOneUnannouncedScriptPerNode(boolean fenced)
      throws Exception {
    String resource = "handoff:one-script:" + fenced;
    try (Redlock redlock = client(fenced, RedlockConfig.DEFAULT_MAX_LOCAL_HANDOFFS, Timing.NODE_TIMEOUT)) {
      Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiter = waitFor(redlock, resource);
      long scripts = Cluster.evalshaCalls(nodes);
      long announcements = publishes();

      assertThat(holder.release()).isTrue();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      if (fenced) {
        assertThat(next.fencingToken()).isEqualTo(holder.fencingToken() + 1);
      }
      await().atMost(Timing.AWAIT).until(() -> Cluster.holdingValue(nodes, resource, next.ownerId()) == 5);
      assertThat(Cluster.evalshaCalls(nodes) - scripts)
          .as("scripts run: one per node, carrying both the release and the acquire").isEqualTo(5);
      assertThat(publishes() - announcements).as("announcements").isZero();
      next.release();
    }
  }

  @Test
  void noLocalHandoffs_releaseIsAnnouncedAndTheWaiterWokenByIt() throws Exception {
    String resource = "handoff:off";
    try (Redlock redlock = client(true, 0, Timing.NODE_TIMEOUT)) {
      Lease holder = redlock.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiter = waitFor(redlock, resource);
      long announcements = publishes();

      holder.release();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(publishes() - announcements).as("announcements").isGreaterThanOrEqualTo(3);
      next.release();
    }
  }

  @Test
  void handoffsInARow_upToTheCap_thenTheReleaseIsAnnounced() throws Exception {
    String resource = "handoff:cap";
    try (Redlock redlock = client(true, 2, Timing.NODE_TIMEOUT)) {
      Lease lease = redlock.acquire(resource, TTL, Duration.ZERO);
      for (int release = 1; release <= 3; release++) {
        CompletableFuture<Lease> waiter = waitFor(redlock, resource);
        long announcements = publishes();

        lease.release();

        Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        long announced = publishes() - announcements;
        if (release <= 2) {
          assertThat(announced).as("announcements of release %d, a local handoff", release).isZero();
        } else {
          assertThat(announced).as("announcements of release %d, past the cap", release).isPositive();
        }
        lease = next;
        await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 0);
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

      // The waiter's attempt takes nodes 0 and 1 and times out on the others; its cleanup
      // must announce, or the release it carried would never be heard of.
      holder.release();
      assertThat(waiter).isNotDone();
      nodes.node(2).resume();
      nodes.node(3).resume();
      nodes.node(4).resume();

      Lease next = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
      next.release();
    }
  }

  private static Redlock client(boolean fenced, int maxLocalHandoffs, Duration nodeTimeout) {
    return Redlock.create(RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(nodeTimeout)
        .connectTimeout(Timing.AWAIT)
        .retryDelay(NEVER_IN_THIS_TEST)
        .retryJitter(Duration.ZERO)
        .fencing(fenced)
        .maxLocalHandoffs(maxLocalHandoffs)
        .build());
  }

  /**
   * Starts an acquire of {@code resource}, which must be held, and returns once it waits: its
   * first attempt failed and it subscribed (it is the resource's only waiter).
   */
  private static CompletableFuture<Lease> waitFor(Redlock redlock, String resource) {
    CompletableFuture<Lease> waiter =
        redlock.acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2)).toCompletableFuture();
    await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 5);
    return waiter;
  }

  private static long publishes() {
    return Cluster.commandCalls(nodes, "publish");
  }
}

package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.NodeKeys;
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

/**
 * A client keeps its subscriptions to a lock's channels for a while after its last waiter of the
 * lock left ({@link ReleaseWaiters#LINGER_NANOS}): the contenders of a busy lock wait for it again
 * a lease later, and subscribing again costs every node two commands each time. The waiting client
 * here holds its sweeps of idle subscriptions back ({@link HeldTasks}), so the test says when the
 * linger is over. Retry delays are far longer than the await bound.
 */
final class LingeringSubscriptionsIT {
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

  @Test
  void aClientThatWaitsForALockAgain_subscribesOnce_andUnsubscribesOnceTheLingerIsOver()
      throws Exception {
    String resource = "linger:again";
    HeldTasks sweeps = HeldTasks.sweeps();
    try (Redlock holder = client();
        Redlock waiter = client(sweeps)) {
      waitAndTake(holder, waiter, resource);
      long subscribes = Cluster.commandCalls(nodes, "subscribe");
      assertThat(Cluster.releaseSubscribers(nodes, resource))
          .as("the waiter's lease ended its only wait; its subscriptions linger")
          .isEqualTo(5);

      waitAndTake(holder, waiter, resource);
      assertThat(Cluster.commandCalls(nodes, "subscribe"))
          .as("the second wait subscribed to nothing")
          .isEqualTo(subscribes);

      assertThat(sweeps.runHeld()).isEqualTo(1);
      assertThat(Cluster.releaseSubscribers(nodes, resource))
          .as("idle for less than a linger at the first sweep: kept")
          .isEqualTo(5);
      assertThat(sweeps.runHeld()).isEqualTo(1);
      await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 0);
      await().atMost(Timing.AWAIT).until(() -> listeningOnTheLead(resource) == 0);
      assertThat(sweeps.runHeld()).as("nothing left to sweep: no sweep scheduled").isZero();
    }
  }

  /**
   * At most {@link ReleaseWaiters#MAX_IDLE_LOCKS} locks keep their subscriptions without a waiter:
   * one more, and the lock idle longest unsubscribes, with no sweep run.
   */
  @Test
  void pastTheCapOfIdleLocks_theLongestIdleUnsubscribes() throws Exception {
    try (Redlock holder = client();
        Redlock waiter = client(HeldTasks.sweeps())) {
      for (int i = 0; i <= ReleaseWaiters.MAX_IDLE_LOCKS; i++) {
        waitAndTake(holder, waiter, "linger:cap:" + i);
      }
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.releaseSubscribers(nodes, "linger:cap:0") == 0);
      assertThat(Cluster.releaseSubscribers(nodes, "linger:cap:1")).isEqualTo(5);
      assertThat(Cluster.releaseSubscribers(nodes, "linger:cap:" + ReleaseWaiters.MAX_IDLE_LOCKS))
          .isEqualTo(5);
    }
  }

  /**
   * A wait that ends without the lock unsubscribes at once: its client may still be queued on the
   * lead node, and a client that does not listen is passed over there, where one that listens is
   * named and must tell everyone instead.
   */
  @Test
  void aWaitThatGaveUp_unsubscribesAtOnce() throws Exception {
    String resource = "linger:gave-up";
    HeldTasks sweeps = HeldTasks.sweeps();
    try (Redlock holder = client();
        Redlock waiter = client(sweeps)) {
      Lease held = holder.acquire(resource, TTL, Duration.ZERO);
      CompletableFuture<Lease> waiting = startWaiting(waiter, resource);

      waiting.cancel(false);
      await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 0);
      await().atMost(Timing.AWAIT).until(() -> listeningOnTheLead(resource) == 0);
      assertThat(sweeps.runHeld()).as("nothing lingers: no sweep scheduled").isZero();
      held.release();
    }
  }

  /**
   * A lingering subscription is made afresh by a wait that comes more than {@link
   * ReleaseWaiters#RENEW_AFTER_NANOS} after it was made, so that a node that never confirmed it is
   * asked again; the waiting client's clock is a {@link FakeTicker} the test moves.
   */
  @Test
  void aLingeringSubscriptionOlderThanTheRenewal_isMadeAfresh() throws Exception {
    String resource = "linger:renewed";
    FakeTicker clock = new FakeTicker();
    try (Redlock holder = client();
        Redlock waiter = client(HeldTasks.sweeps(), clock)) {
      waitAndTake(holder, waiter, resource);
      long subscribes = Cluster.commandCalls(nodes, "subscribe");
      waitAndTake(holder, waiter, resource);
      assertThat(Cluster.commandCalls(nodes, "subscribe")).isEqualTo(subscribes);

      clock.advance(Duration.ofNanos(ReleaseWaiters.RENEW_AFTER_NANOS + 1));
      waitAndTake(holder, waiter, resource);
      assertThat(Cluster.commandCalls(nodes, "subscribe") - subscribes)
          .as("both channels on every node, again")
          .isEqualTo(10);
      assertThat(Cluster.releaseSubscribers(nodes, resource)).isEqualTo(5);
    }
  }

  /**
   * {@code holder} takes the lock, {@code waiter} waits for it (and queues on the lead node), the
   * holder releases, and the waiter, named by the lead, takes the lock and releases it: its wait
   * ended with the lock, so its subscriptions linger.
   */
  private static void waitAndTake(Redlock holder, Redlock waiter, String resource)
      throws Exception {
    Lease held = holder.acquire(resource, TTL, Duration.ZERO);
    CompletableFuture<Lease> waiting = startWaiting(waiter, resource);
    held.release();
    Lease lease = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(lease.fencingToken()).isEqualTo(held.fencingToken() + 1);
    lease.release();
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .until(() -> Cluster.holding(nodes, resource) == 0);
  }

  /** Starts an acquire of a held lock and returns once its client is queued on the lead node. */
  private static CompletableFuture<Lease> startWaiting(Redlock client, String resource) {
    CompletableFuture<Lease> waiting =
        client
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .until(
            () ->
                (Long) lead(resource).command("ZCARD", NodeKeys.waiters(resource)) == 1
                    && listeningOnTheLead(resource) == 1);
    assertThat(waiting).isNotDone();
    return waiting;
  }

  private static long listeningOnTheLead(String resource) {
    return Cluster.listeningOnTheLead(nodes, resource);
  }

  private static RedisNode lead(String resource) {
    return Cluster.lead(nodes, resource);
  }

  private static Redlock client() {
    return Redlock.create(config());
  }

  private static Redlock client(HeldTasks sweeps) {
    return client(sweeps, Ticker.system());
  }

  private static Redlock client(HeldTasks sweeps, Ticker ticker) {
    RedlockConfig config = config(ticker);
    return Redlock.create(config, RespNodeDriver.open(config), sweeps.environment());
  }

  private static RedlockConfig config() {
    return config(Ticker.system());
  }

  private static RedlockConfig config(Ticker ticker) {
    return Cluster.wokenOnly(nodes, NEVER_IN_THIS_TEST).ticker(ticker).maxLocalHandoffs(0).build();
  }
}

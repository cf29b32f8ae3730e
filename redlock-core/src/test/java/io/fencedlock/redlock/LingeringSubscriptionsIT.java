package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
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
 * here holds its sweeps of idle subscriptions back ({@link HeldSweeps}), so the test says when the
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
    HeldSweeps sweeps = new HeldSweeps();
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

      assertThat(sweeps.runSweeps()).isEqualTo(1);
      assertThat(Cluster.releaseSubscribers(nodes, resource))
          .as("idle for less than a linger at the first sweep: kept")
          .isEqualTo(5);
      assertThat(sweeps.runSweeps()).isEqualTo(1);
      await().atMost(Timing.AWAIT).until(() -> Cluster.releaseSubscribers(nodes, resource) == 0);
      await().atMost(Timing.AWAIT).until(() -> listeningOnTheLead(resource) == 0);
      assertThat(sweeps.runSweeps()).as("nothing left to sweep: no sweep scheduled").isZero();
    }
  }

  /**
   * A wait that starts while the client listens on the lock's channels queues on the lead node with
   * its first attempt: one script there, where a client that must subscribe first sends a second
   * attempt once subscribed.
   */
  @Test
  void aWaitThatStartsWhileListening_queuesWithItsFirstAttempt() throws Exception {
    String resource = "linger:first-attempt";
    try (Redlock holder = client();
        Redlock waiter = client(new HeldSweeps())) {
      waitAndTake(holder, waiter, resource);
      Lease held = holder.acquire(resource, TTL, Duration.ZERO);
      long onLead = Cluster.evalshaCalls(lead(resource));

      CompletableFuture<Lease> waiting = startWaiting(waiter, resource);
      assertThat(Cluster.evalshaCalls(lead(resource)) - onLead)
          .as("the waiter's attempts on the lead node")
          .isEqualTo(1);

      held.release();
      waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).release();
    }
  }

  /**
   * {@code holder} takes the lock, {@code waiter} waits for it (and queues on the lead node), the
   * holder releases, and the waiter, named by the lead, takes the lock and releases it.
   */
  private static void waitAndTake(Redlock holder, Redlock waiter, String resource)
      throws Exception {
    Lease held = holder.acquire(resource, TTL, Duration.ZERO);
    CompletableFuture<Lease> waiting = startWaiting(waiter, resource);
    held.release();
    Lease lease = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(lease.fencingToken()).isEqualTo(held.fencingToken() + 1);
    lease.release();
    Cluster.awaitNoKey(nodes, resource);
  }

  /** Starts an acquire of a held lock and returns once its client is queued on the lead node. */
  private static CompletableFuture<Lease> startWaiting(Redlock client, String resource) {
    CompletableFuture<Lease> waiting =
        client
            .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
            .toCompletableFuture();
    await()
        .atMost(Timing.AWAIT)
        .until(
            () ->
                (Long) lead(resource).command("ZCARD", NodeKeys.waiters(resource)) == 1
                    && listeningOnTheLead(resource) == 1);
    assertThat(waiting).isNotDone();
    return waiting;
  }

  private static long listeningOnTheLead(String resource) {
    String pattern = "fencedlock:next:" + resource + ":*";
    return ((List<?>) lead(resource).command("PUBSUB", "CHANNELS", pattern)).size();
  }

  private static RedisNode lead(String resource) {
    List<String> identities = nodes.uris().stream().map(LeadNode::identity).toList();
    return nodes.node(LeadNode.pick(identities, resource));
  }

  private static Redlock client() {
    return Redlock.create(config());
  }

  private static Redlock client(HeldSweeps sweeps) {
    RedlockConfig config = config();
    return Redlock.create(config, RespNodeDriver.open(config), sweeps.environment());
  }

  private static RedlockConfig config() {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(LockTiming.NODE_TIMEOUT)
        .connectTimeout(Timing.AWAIT)
        .retryDelay(NEVER_IN_THIS_TEST)
        .retryJitter(Duration.ZERO)
        .maxLocalHandoffs(0)
        .build();
  }
}

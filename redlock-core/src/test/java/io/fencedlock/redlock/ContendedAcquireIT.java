package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A waiter's retry after a release announcement asks the lock's lead node first and the other nodes
 * only once it granted, so that waiters of several processes woken by one release cannot split the
 * nodes; and a waiter that had not seen the last holder's token still needs no phase 2. Round trips
 * are counted as EVALSHA calls on the servers; the retry delay is longer than any wait here, so
 * every retry is started by a subscription or an announcement.
 */
final class ContendedAcquireIT {
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

  @Test
  void waitersRetry_asksTheLeadNodeAlone_whileAnotherClientHoldsTheLock() throws Exception {
    String resource = "contended:held";
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other = Redlock.create(waiterConfig())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(resource);
      long[] before = evalshaPerNode();

      CompletableFuture<Lease> waiter =
          other
              .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
              .toCompletableFuture();
      // The first attempt asks every node; the retry that the confirmed subscription starts asks
      // the lead node alone, which refuses.
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.evalshaCalls(lead) - before[lead.index()] >= 2);
      long[] after = evalshaPerNode();
      for (RedisNode node : nodes) {
        if (node != lead) {
          assertThat(after[node.index()] - before[node.index()])
              .as("scripts on node %d, not the lead", node.index())
              .isEqualTo(1);
        }
      }

      awaitSubscribedEverywhere(resource);
      held.release();
      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isEqualTo(held.fencingToken() + 1);
      lease.release();
    }
  }

  @Test
  void waiterThatMissedTheLastToken_takesOneAboveTheLeadsCounter_withoutPhase2() throws Exception {
    String resource = "contended:stale";
    String fenceKey = "{" + resource + "}:fence";
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other = Redlock.create(waiterConfig())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(resource);
      long leadBefore = Cluster.evalshaCalls(lead);
      CompletableFuture<Lease> waiter =
          other
              .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
              .toCompletableFuture();
      await().atMost(Timing.AWAIT).until(() -> Cluster.evalshaCalls(lead) - leadBefore >= 2);

      // Tokens the waiter never heard of (a client that came and went meanwhile), then the holder's
      // release made by hand, deletes first, so that the announcements find every node free.
      long unseen = held.fencingToken() + 10;
      for (RedisNode node : nodes) {
        node.command("SET", fenceKey, Long.toString(unseen));
      }
      awaitSubscribedEverywhere(resource);
      long scriptsBefore = Cluster.evalshaCalls(nodes);
      for (RedisNode node : nodes) {
        node.command("DEL", resource);
      }
      for (RedisNode node : nodes) {
        node.command("PUBLISH", "fencedlock:released:" + resource, held.ownerId());
      }

      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isEqualTo(unseen + 1);
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, fenceKey, Long.toString(unseen + 1)) == 5);
      assertThat(Cluster.evalshaCalls(nodes) - scriptsBefore)
          .as("the lead's lock step, the others' lock steps and the token written on the lead")
          .isEqualTo(1 + 4 + 1);
      lease.release();
    }
  }

  @Test
  void clientThatJustMetARival_asksTheLeadNodeFirstInItsNextAcquiresFirstAttempt()
      throws Exception {
    // Without it, a client that releases a contended lock and asks again at once beats the
    // waiters it woke every time: its first attempt takes the other nodes while they ask the lead.
    String resource = "contended:rival-met";
    FakeTicker ticker = new FakeTicker(); // still "just now" however slow the machine is
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other =
            Redlock.create(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(LockTiming.NODE_TIMEOUT)
                    .connectTimeout(Timing.AWAIT)
                    .retryDelay(NEVER_IN_THIS_TEST)
                    .retryJitter(Duration.ZERO)
                    .ticker(ticker)
                    .build())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      assertThat(other.tryAcquire(resource, TTL)).as("refused: a rival holds it").isEmpty();
      RedisNode lead = lead(resource);
      long[] before = evalshaPerNode();

      CompletableFuture<Lease> waiter =
          other
              .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
              .toCompletableFuture();
      // Both attempts (the first, and the one its subscription starts) ask the lead alone.
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.evalshaCalls(lead) - before[lead.index()] >= 2);
      long[] after = evalshaPerNode();
      for (RedisNode node : nodes) {
        if (node != lead) {
          assertThat(after[node.index()] - before[node.index()])
              .as("scripts on node %d, not the lead", node.index())
              .isZero();
        }
      }

      awaitSubscribedEverywhere(resource);
      held.release();
      waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS).release();
    }
  }

  /**
   * The failure of an acquire whose last attempt stopped at the lead node reports the other nodes
   * as not asked, not as a bare NO_REPLY_YET like slow nodes: the round decides once a quorum is
   * impossible, before every placeholder is in.
   */
  @Test
  void contendedFailure_reportsTheLeadsRefusal() throws Exception {
    String resource = "contended:diagnostics";
    Duration retryDelay = Timing.scaled(Duration.ofSeconds(6));
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other =
            Redlock.create(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(LockTiming.NODE_TIMEOUT)
                    .connectTimeout(Timing.AWAIT)
                    .retryDelay(retryDelay)
                    .retryJitter(Duration.ZERO)
                    .build())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(resource);
      long leadBefore = Cluster.evalshaCalls(lead);
      long started = System.nanoTime();
      // maxWait: more than one retry delay, less than the time of the announcement plus one.
      CompletableFuture<Lease> waiter =
          other
              .acquireAsync(resource, TTL, retryDelay.plus(retryDelay.dividedBy(4)))
              .toCompletableFuture();
      // First attempt everywhere, then the contended retry the subscription starts (lead alone).
      await().atMost(Timing.AWAIT).until(() -> Cluster.evalshaCalls(lead) - leadBefore >= 2);
      // Past the point where one more retry delay would exceed maxWait, announce the release of
      // an owner that holds nothing here, with the lead's key now another owner's: the waiter's
      // contended retry is refused by the lead for an owner that was neither announced nor the
      // one it met before (either would have it retry at once), and it gives up with that one.
      long wakeAt = started + retryDelay.dividedBy(2).toNanos();
      while (System.nanoTime() < wakeAt) {
        Thread.sleep(10);
      }
      assertThat(waiter).isNotDone();
      awaitSubscribedEverywhere(resource);
      lead.command("SET", resource, "another-holder", "XX", "KEEPTTL");
      for (RedisNode node : nodes) {
        node.command("PUBLISH", "fencedlock:released:" + resource, "an-owner-released-elsewhere");
      }
      LockAcquisitionException failure = null;
      try {
        waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        failure = (LockAcquisitionException) e.getCause();
      }
      assertThat(failure).isNotNull();
      assertThat(Cluster.evalshaCalls(lead) - leadBefore)
          .as("scripts on the lead: first attempt, subscription retry, announced retry")
          .isEqualTo(3);
      String leadLabel = lead.host() + ":" + lead.port();
      assertThat(failure.outcomes())
          .as("the last attempt's outcomes: %s", failure.outcomes())
          .anySatisfy(
              outcome -> {
                assertThat(outcome.node()).isEqualTo(leadLabel);
                assertThat(outcome.status()).isEqualTo(NodeStatus.REFUSED);
              });
      // The four other nodes were never asked, and say so (the round decided on the lead's
      // refusal and the first two placeholders).
      assertThat(failure.outcomes())
          .as("the last attempt's outcomes: %s", failure.outcomes())
          .filteredOn(outcome -> !outcome.node().equals(leadLabel))
          .allSatisfy(outcome -> assertThat(outcome.detail()).isEqualTo(NodeReply.NOT_ASKED));
      held.release();
      lead.command("DEL", resource); // another-holder's
    }
  }

  /**
   * A stale key on the lead node (a crashed client's, an undo whose delete was lost) does not keep
   * a waiter from a release announced by the four other nodes until its retry delay: refused at the
   * lead for the owner it was refused for before the release, the waiter asks every node at once.
   */
  @Test
  void staleKeyOnTheLead_doesNotKeepAnAnnouncedReleaseFromTheWaiter() throws Exception {
    String resource = "contended:stale-lead";
    Duration longRetry = Timing.scaled(Duration.ofMinutes(5));
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other =
            Redlock.create(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(LockTiming.NODE_TIMEOUT)
                    .connectTimeout(Timing.AWAIT)
                    .retryDelay(longRetry)
                    .retryJitter(Duration.ZERO)
                    .build())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(resource);
      // The holder's lease counts the four other nodes; the lead has a crashed client's key.
      lead.command("SET", resource, "ghost-owner-that-crashed", "PX", "30000");
      long leadBefore = Cluster.evalshaCalls(lead);
      CompletableFuture<Lease> waiter =
          other.acquireAsync(resource, TTL, longRetry.multipliedBy(2)).toCompletableFuture();
      await().atMost(Timing.AWAIT).until(() -> Cluster.evalshaCalls(lead) - leadBefore >= 2);

      awaitSubscribedEverywhere(resource);
      held.release(); // four nodes delete and announce: a quorum is free
      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      lease.release();
    } finally {
      for (RedisNode node : nodes) {
        node.command("DEL", resource);
      }
    }
  }

  /** A waiter whose retries are started only by its subscription and by announcements. */
  /**
   * A waiter acts on the quorum-th node's announcement, which need not include the lead's: its
   * retry, asking the lead first, may find the released key still there. The retry deletes the
   * announced owner's key itself, so it does not sleep its retry delay beside a released lock
   * (unfenced, a plain {@code SET NX} refusal names no holder, so nothing else could tell).
   */
  @ParameterizedTest(name = "fenced = {0}")
  @ValueSource(booleans = {true, false})
  void announcedRelease_whoseDeleteHasNotReachedTheLead_isTakenAtOnce(boolean fenced)
      throws Exception {
    String resource = "contended:lead-behind:" + fenced;
    try (Redlock holder = Redlock.create(Cluster.config(nodes).fencing(fenced).build());
        Redlock other =
            Redlock.create(Cluster.wokenOnly(nodes, NEVER_IN_THIS_TEST).fencing(fenced).build())) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(resource);
      String step = fenced ? "evalsha" : "set";
      long onLead = Cluster.commandCalls(lead, step);
      CompletableFuture<Lease> waiter =
          other
              .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
              .toCompletableFuture();
      // first attempt, then the retry the confirmed subscription starts: both refused on the lead
      await().atMost(Timing.AWAIT).until(() -> Cluster.commandCalls(lead, step) - onLead >= 2);
      awaitSubscribedEverywhere(resource);

      // The release as the waiter may see it: every node but the lead has deleted and announced
      // (all deletes first: a plain DEL after the waiter's step would delete the waiter's key).
      List<RedisNode> others = nodes.nodes().stream().filter(node -> node != lead).toList();
      others.forEach(node -> node.command("DEL", resource));
      others.forEach(
          node -> node.command("PUBLISH", "fencedlock:released:" + resource, held.ownerId()));
      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      // granted at a quorum; the last nodes' replies may still be on their way
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
      held.release(); // nothing of it is left
      lease.release();
    }
  }

  private static RedlockConfig waiterConfig() {
    return Cluster.wokenOnly(nodes, NEVER_IN_THIS_TEST).build();
  }

  /** A waiter whose retry delay never comes in a test: every retry is started by a message. */
  private static RedisNode lead(String resource) {
    return Cluster.lead(nodes, resource);
  }

  /**
   * The waiter's subscription is confirmed once one node confirmed it; a release before a quorum of
   * nodes has it would go unheard, and the waiter sleep its retry delay.
   */
  private static void awaitSubscribedEverywhere(String resource) {
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.releaseSubscribers(nodes, resource) >= nodes.size());
  }

  private static long[] evalshaPerNode() {
    return nodes.nodes().stream().mapToLong(Cluster::evalshaCalls).toArray();
  }
}

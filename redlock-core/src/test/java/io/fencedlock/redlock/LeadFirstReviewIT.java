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

/**
 * Review of 37b6a86 (contended acquires ask the lead node first). Each test shows one finding; they
 * fail on 005c6fe.
 */
final class LeadFirstReviewIT {
  private static final Duration TTL = Duration.ofSeconds(30);

  private static RedisNodes nodes;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  /**
   * Finding (cosmetic): when the lead refuses, QuorumRound decides as soon as three of the five
   * futures (the lead's refusal and two "not asked" placeholders) are in, so the other two nodes'
   * placeholders never reach {@code Failed.replies()}: the LockAcquisitionException of an acquire
   * whose last attempt was contended lists them as a bare PENDING, the status of a node that was
   * asked and had not answered yet.
   */
  @Test
  void contendedFailure_reportsTheLeadsRefusal() throws Exception {
    String resource = "review20:diagnostics";
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
      // Past the point where one more retry delay would exceed maxWait, announce the holder's
      // release without deleting anything: the waiter's contended retries are refused by the lead
      // (for an announced owner: two immediate retries), and then it gives up with the last one.
      long wakeAt = started + retryDelay.dividedBy(2).toNanos();
      while (System.nanoTime() < wakeAt) {
        Thread.sleep(10);
      }
      assertThat(waiter).isNotDone();
      for (RedisNode node : nodes) {
        node.command("PUBLISH", "fencedlock:released:" + resource, held.ownerId());
      }
      LockAcquisitionException failure = null;
      try {
        waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        failure = (LockAcquisitionException) e.getCause();
      }
      assertThat(failure).isNotNull();
      assertThat(Cluster.evalshaCalls(lead) - leadBefore)
          .as("scripts on the lead: first attempt, subscription retry, announced retry + 2")
          .isEqualTo(5);
      String leadLabel = lead.host() + ":" + lead.port();
      assertThat(failure.outcomes())
          .as("the last attempt's outcomes: %s", failure.outcomes())
          .anySatisfy(
              outcome -> {
                assertThat(outcome.node()).isEqualTo(leadLabel);
                assertThat(outcome.status()).isEqualTo(NodeStatus.REFUSED);
              });
      // The four other nodes were never asked, and should say so; QuorumRound decided on the
      // lead's refusal and the first two placeholders, so two show as a bare PENDING ("no answer
      // had arrived when the outcome was already decided"), as if they had been slow.
      assertThat(failure.outcomes())
          .as("the last attempt's outcomes: %s", failure.outcomes())
          .filteredOn(outcome -> !outcome.node().equals(leadLabel))
          .allSatisfy(outcome -> assertThat(outcome.detail()).isEqualTo(NodeReply.NOT_ASKED));
      held.release();
    }
  }

  /**
   * Finding 2 (liveness regression, bounded by the retry delay): a stale key on the lead node (a
   * crashed client's, an undo whose delete was lost) makes every announcement-driven retry stop at
   * the lead, so a waiter no longer takes a lock whose release was announced by four of five nodes
   * until its retry timer fires: before 37b6a86 the announced retry asked every node and won four.
   */
  @Test
  void staleKeyOnTheLead_doesNotKeepAnAnnouncedReleaseFromTheWaiter() throws Exception {
    String resource = "review20:stale-lead";
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

      held.release(); // four nodes delete and announce: a quorum is free
      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      lease.release();
    } finally {
      for (RedisNode node : nodes) {
        node.command("DEL", resource);
      }
    }
  }

  private static RedisNode lead(String resource) {
    List<String> identities = nodes.uris().stream().map(LeadNode::identity).toList();
    return nodes.node(LeadNode.pick(identities, resource));
  }
}

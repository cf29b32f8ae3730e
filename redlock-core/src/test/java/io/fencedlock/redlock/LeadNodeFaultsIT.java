package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A waiter's contended retry with a lead node that lost its memory or is paused still takes an
 * announced release from the other nodes. Each test starts its own nodes: it wipes or pauses one.
 */
final class LeadNodeFaultsIT {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration LONG_RETRY = Timing.scaled(Duration.ofMinutes(5));

  @Test
  void leadWithoutItsMemory_waiterTakesTheReleaseFromTheOthers() throws Exception {
    String resource = "lead-faults:wiped";
    try (RedisNodes nodes = RedisNodes.start(5);
        Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other = Redlock.create(waiterConfig(nodes))) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(nodes, resource);
      CompletableFuture<Lease> waiter = waitingBehindTheLead(nodes, other, resource, lead);

      lead.command("FLUSHALL"); // amnesia: marker, fence counter and the holder's key gone
      held.release();
      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
      assertThat(lead.command("EXISTS", resource)).isEqualTo(0L);
      lease.release();
    }
  }

  @Test
  void pausedLead_waiterTakesTheReleaseAfterOneNodeTimeout_validityCountsIt() throws Exception {
    String resource = "lead-faults:paused";
    try (RedisNodes nodes = RedisNodes.start(5);
        Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Redlock other = Redlock.create(waiterConfig(nodes))) {
      Lease held = holder.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      RedisNode lead = lead(nodes, resource);
      CompletableFuture<Lease> waiter = waitingBehindTheLead(nodes, other, resource, lead);

      lead.pause();
      try {
        long released = System.nanoTime();
        held.release();
        Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        long took = System.nanoTime() - released;
        assertThat(took).isGreaterThanOrEqualTo(LockTiming.NODE_TIMEOUT.toNanos());
        assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
        // The lead step's timeout is counted against the validity.
        assertThat(lease.remainingValidity()).isLessThan(TTL.minus(LockTiming.NODE_TIMEOUT));
        lease.release();
      } finally {
        lead.resume();
      }
    }
  }

  /** Starts an acquire and returns once it has asked the lead alone (its subscription retry). */
  private static CompletableFuture<Lease> waitingBehindTheLead(
      RedisNodes nodes, Redlock other, String resource, RedisNode lead) {
    long leadBefore = Cluster.evalshaCalls(lead);
    CompletableFuture<Lease> waiter =
        other.acquireAsync(resource, TTL, LONG_RETRY.multipliedBy(2)).toCompletableFuture();
    await().atMost(Timing.AWAIT).until(() -> Cluster.evalshaCalls(lead) - leadBefore >= 2);
    assertThat(waiter).isNotDone();
    return waiter;
  }

  private static RedlockConfig waiterConfig(RedisNodes nodes) {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(LockTiming.NODE_TIMEOUT)
        .connectTimeout(Timing.AWAIT)
        .retryDelay(LONG_RETRY)
        .retryJitter(Duration.ZERO)
        .build();
  }

  private static RedisNode lead(RedisNodes nodes, String resource) {
    return Cluster.lead(nodes, resource);
  }
}

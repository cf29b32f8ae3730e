package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A waiting acquire that lost to rivals splitting the nodes between them retries after a short
 * random backoff, not after its retry delay, which is longer than the await bound here. The split
 * is made by hand with two foreign owners' keys, which nobody announces when it goes.
 */
final class SplitVoteIT {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration NEVER_IN_THIS_TEST = Timing.scaled(Duration.ofMinutes(5));

  @Test
  void acquire_rivalsSplitTheNodes_retriesSoonAfterTheyLetGo() throws Exception {
    String resource = "split-vote";
    try (RedisNodes nodes = RedisNodes.start(5);
        Redlock redlock =
            Redlock.create(
                RedlockConfig.builder()
                    .nodes(nodes.uris())
                    .nodeTimeout(LockTiming.NODE_TIMEOUT)
                    .connectTimeout(Timing.AWAIT)
                    .retryDelay(NEVER_IN_THIS_TEST)
                    .retryJitter(Duration.ZERO)
                    .build())) {
      nodes.node(0).command("SET", resource, "rival-a", "PX", "30000");
      nodes.node(1).command("SET", resource, "rival-a", "PX", "30000");
      nodes.node(2).command("SET", resource, "rival-b", "PX", "30000");
      long scripts = Cluster.evalshaCalls(nodes);

      CompletableFuture<Lease> waiter =
          redlock
              .acquireAsync(resource, TTL, NEVER_IN_THIS_TEST.multipliedBy(2))
              .toCompletableFuture();
      // The first attempt fails and subscribes; the confirmed subscription starts a second one
      // at once. Each takes nodes 3 and 4 (5 scripts) and gives them back (2 more).
      await().atMost(Timing.AWAIT).until(() -> Cluster.evalshaCalls(nodes) - scripts >= 14);
      assertThat(waiter).isNotDone();
      for (int node = 0; node <= 2; node++) {
        nodes.node(node).command("DEL", resource); // the rivals clean up, unannounced
      }

      Lease lease = waiter.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(lease.isValid()).isTrue();
      assertThat(Cluster.holdingValue(nodes, resource, lease.ownerId())).isGreaterThanOrEqualTo(3);
      lease.release();
    }
  }
}

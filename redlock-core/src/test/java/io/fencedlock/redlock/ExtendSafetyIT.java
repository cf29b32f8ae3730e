package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A lease's validity is never longer than what a quorum of nodes still holds, whatever the outcome
 * or order of its extends: extend only ever lengthens a key's expiry, a late or failed extend
 * cannot shorten it, and an extend that learns the key is gone on a majority ends the lease.
 */
final class ExtendSafetyIT {
  private static final Duration LONG_TTL = Duration.ofSeconds(20);
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
    resource = "extend:" + test.getTestMethod().orElseThrow().getName();
    redlock = Redlock.create(Cluster.config(nodes).build());
  }

  @AfterEach
  void tearDown() {
    Cluster.heal(nodes);
    redlock.close();
  }

  @Test
  void extend_shorterTtlFailsOnPausedMajorityAndLandsLate_keysKeepTheLeasesExpiry() {
    Lease lease = acquireOnEveryNode(LONG_TTL);
    for (int i = 0; i < 3; i++) {
      nodes.node(i).pause();
    }

    assertThat(lease.extend(Duration.ofMillis(300))).isFalse();
    for (int i = 0; i < 3; i++) {
      nodes.node(i).resume();
    }
    awaitEverythingSentHasRun();

    assertThat(lease.isValid()).isTrue();
    assertValidityWithinWhatAQuorumHolds(lease);
    lease.release();
  }

  @Test
  void extend_shorterTtlThanRemaining_keepsTheLongerExpiryEverywhere() {
    Lease lease = acquireOnEveryNode(LONG_TTL);

    assertThat(lease.extend(Duration.ofSeconds(1))).isTrue();

    assertThat(lease.remainingValidity()).isGreaterThan(Duration.ofSeconds(10));
    for (RedisNode node : nodes) {
      assertThat((Long) node.command("PTTL", resource)).isGreaterThan(10_000L);
    }
    assertValidityWithinWhatAQuorumHolds(lease);
    lease.release();
  }

  @Test
  void extend_concurrentLongAndShort_longerStandsAndNeverExceedsWhatTheNodesHold() {
    for (int round = 0; round < 20; round++) {
      Lease lease = acquireOnEveryNode(Duration.ofSeconds(2));

      CompletableFuture<Boolean> longer =
          lease.extendAsync(Duration.ofSeconds(10)).toCompletableFuture();
      CompletableFuture<Boolean> shorter =
          lease.extendAsync(Duration.ofSeconds(1)).toCompletableFuture();
      CompletableFuture.allOf(longer, shorter).join();
      awaitEverythingSentHasRun();

      assertValidityWithinWhatAQuorumHolds(lease);
      if (longer.join()) {
        // Whatever order the confirmations came in, the longer one stands.
        assertThat(lease.remainingValidity()).isGreaterThan(Duration.ofSeconds(5));
      }
      lease.release();
    }
  }

  @Test
  void extend_twoAtOnceWithOneExtensionLeft_onlyOneIsSent() {
    try (Redlock capped = Redlock.create(Cluster.config(nodes).maxExtensions(1).build())) {
      Lease lease = capped.acquire(resource, LONG_TTL, LockTiming.RETRY_WAIT);
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
      long before = expiryCalls();

      // Shorter than what the key has: each extend.lua that runs reads PTTL once and writes
      // nothing.
      CompletableFuture<Boolean> first =
          lease.extendAsync(Duration.ofSeconds(1)).toCompletableFuture();
      CompletableFuture<Boolean> second =
          lease.extendAsync(Duration.ofSeconds(1)).toCompletableFuture();

      assertThat(first).succeedsWithin(Timing.AWAIT).isEqualTo(true);
      assertThat(second)
          .failsWithin(Timing.AWAIT)
          .withThrowableOfType(java.util.concurrent.ExecutionException.class)
          .withCauseInstanceOf(IllegalStateException.class);
      awaitEverythingSentHasRun(capped);
      assertThat(expiryCalls() - before).as("expiry reads and writes on the nodes").isEqualTo(5);
      lease.release();
    }
  }

  private static long expiryCalls() {
    return Cluster.commandCalls(nodes, "pttl") + Cluster.commandCalls(nodes, "pexpire");
  }

  @Test
  void extend_keyGoneOnAMajority_returnsFalseAndEndsTheLease() {
    Lease lease = acquireOnEveryNode(LONG_TTL);
    for (int i = 0; i < 3; i++) {
      nodes.node(i).command("DEL", resource);
    }

    assertThat(lease.extend(LONG_TTL)).isFalse();

    assertThat(lease.isValid()).as("a majority no longer holds the key").isFalse();
    assertThat(lease.remainingValidity()).isZero();
    for (int i = 0; i < 3; i++) {
      assertThat(nodes.node(i).command("EXISTS", resource)).isEqualTo(0L);
    }
    lease.release();
  }

  /** acquire returns at the third grant; waits until the other two SETs have landed too. */
  private Lease acquireOnEveryNode(Duration ttl) {
    Lease lease = redlock.acquire(resource, ttl, LockTiming.RETRY_WAIT);
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
    return lease;
  }

  /**
   * Waits until every request this client has sent so far has run on every node: requests to one
   * node share a connection and run in order, so once a later lock is set on all five nodes,
   * everything sent before it has run there too.
   */
  private void awaitEverythingSentHasRun() {
    awaitEverythingSentHasRun(redlock);
  }

  private void awaitEverythingSentHasRun(Redlock client) {
    Lease marker = client.acquire(resource + ":marker", LONG_TTL, LockTiming.RETRY_WAIT);
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource + ":marker", marker.ownerId()) == 5);
    marker.release();
  }

  /**
   * The lease's remaining validity, read after the nodes' PTTLs, must not exceed the PTTL that a
   * quorum of nodes still has (the third largest of five), allowing 1 ms for PTTL's rounding.
   */
  private static void assertValidityWithinWhatAQuorumHolds(Lease lease) {
    List<Long> pttls =
        nodes.nodes().stream()
            .map(node -> (Long) node.command("PTTL", lease.resource()))
            .map(pttl -> Math.max(pttl, 0L)) // -2: no key
            .sorted((a, b) -> Long.compare(b, a))
            .toList();
    long quorumHolds = pttls.get(nodes.size() / 2);
    assertThat(lease.remainingValidity().toMillis())
        .as("validity vs. PTTLs %s", pttls)
        .isLessThanOrEqualTo(quorumHolds + 1);
  }
}

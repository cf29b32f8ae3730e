package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Nodes that lose their memory: the initialization marker tells them apart, they are kept out of
 * quorums, and re-admitted only with fence counters above every token issued. Each test starts its
 * own fresh nodes, because what it checks is how a deployment begins.
 */
final class NodeAmnesiaIT {
  private static final Duration TTL = Duration.ofSeconds(5);
  private static final String MARKER = "redlock:node-init";

  /**
   * Written to a node when a client first sees it without its marker: names that empty incarnation.
   */
  private static final String EMPTY_SINCE = "redlock:node-empty";

  @Test
  void create_freshDeploymentAllNodesAnswer_marksEveryNodeWithAnEpoch() {
    try (RedisNodes nodes = RedisNodes.start(5);
        Redlock redlock = Redlock.create(Cluster.config(nodes).build())) {
      long nowMicros = System.currentTimeMillis() * 1000;
      for (RedisNode node : nodes) {
        long epoch = Long.parseLong((String) node.command("GET", MARKER));
        assertThat(epoch).isBetween(nowMicros - 60_000_000L, nowMicros + 1);
      }
      try (Lease lease = redlock.acquire("amnesia:first", TTL, LockTiming.RETRY_WAIT)) {
        assertThat(lease.fencingToken()).isGreaterThan(nowMicros - 60_000_000L);
      }
    }
  }

  @Test
  void create_freshDeploymentOneNodeDown_initializesNothingUntilAllAnswer() {
    try (RedisNodes nodes = RedisNodes.start(5)) {
      nodes.node(4).kill();
      try (Redlock redlock = Redlock.create(Cluster.config(nodes).build())) {
        for (int i = 0; i < 4; i++) {
          assertThat(nodes.node(i).command("EXISTS", MARKER)).isEqualTo(0L);
        }
        assertThatThrownBy(() -> redlock.acquire("amnesia:partial", TTL, Duration.ZERO))
            .isInstanceOfSatisfying(
                LockAcquisitionException.class,
                e -> {
                  // The round stops once a quorum is impossible, so some replies may still be
                  // pending.
                  assertThat(e.outcomes()).noneMatch(o -> o.status() == NodeStatus.GRANTED);
                  assertThat(e.outcomes())
                      .filteredOn(o -> o.status() == NodeStatus.UNINITIALIZED)
                      .hasSizeGreaterThanOrEqualTo(2);
                });

        nodes.node(4).restart();

        try (Lease lease =
            redlock.acquire(
                "amnesia:partial",
                TTL,
                Duration.ofSeconds(2))) { // retries until the client reconnects to node 4
          assertThat(lease.isValid()).isTrue();
        }
        for (RedisNode node : nodes) {
          assertThat(node.command("EXISTS", MARKER)).isEqualTo(1L);
        }
      }
    }
  }

  /**
   * Nobody else initializes the nodes here: create() could not (node 4 was down) and no
   * single-resource acquire runs, so acquireAll must do it once all five answer.
   */
  @Test
  void acquireAll_freshDeploymentOneNodeDownAtCreate_initializesOnceAllAnswer() {
    try (RedisNodes nodes = RedisNodes.start(5)) {
      nodes.node(4).kill();
      try (Redlock redlock = Redlock.create(Cluster.config(nodes).build())) {
        nodes.node(4).restart();

        // Retries until the client reconnects to node 4.
        try (MultiLease lease =
            redlock.acquireAll(
                java.util.List.of("amnesia:all-a", "amnesia:all-b"), TTL, LockTiming.RETRY_WAIT)) {
          assertThat(lease.isValid()).isTrue();
        }
        for (RedisNode node : nodes) {
          assertThat(node.command("EXISTS", MARKER)).isEqualTo(1L);
        }
      }
    }
  }

  @Test
  void restartWithoutData_nodeIsExcludedNotCounted() {
    try (RedisNodes nodes = RedisNodes.start(5, Persistence.AOF_ALWAYS);
        Redlock redlock = Redlock.create(Cluster.config(nodes).build())) {
      redlock.acquire("amnesia:excluded", TTL, LockTiming.RETRY_WAIT).release();
      nodes.node(0).restart(Persistence.NONE);
      nodes.node(3).kill();
      nodes.node(4).kill();

      // Nodes 0, 1 and 2 answer; counting the empty node 0 would make a quorum of three. The
      // wait covers the client's reconnect to the restarted node (ERROR until then).
      assertThatThrownBy(() -> redlock.acquire("amnesia:excluded", TTL, Duration.ofSeconds(1)))
          .isInstanceOfSatisfying(
              LockAcquisitionException.class,
              e -> {
                assertThat(e.outcomes().get(0).status()).isEqualTo(NodeStatus.UNINITIALIZED);
                assertThat(e.outcomes().subList(1, 3))
                    .allMatch(
                        o ->
                            o.status() == NodeStatus.GRANTED
                                || o.status() == NodeStatus.NO_REPLY_YET);
              });
      assertThat(nodes.node(0).command("EXISTS", "amnesia:excluded")).isEqualTo(0L);
      assertThat(nodes.node(0).command("EXISTS", MARKER))
          .as("not re-admitted before maxLeaseTtl")
          .isEqualTo(0L);
    }
  }

  @Test
  void restartWithoutData_checkSwitchedOff_tokensGoBackwards() {
    // The negative control: it shows what the marker check prevents.
    try (RedisNodes nodes = RedisNodes.start(5, Persistence.AOF_ALWAYS);
        Redlock unsafe = Cluster.withoutMarkerCheckUnsafe(Cluster.config(nodes).build());
        // Another process: it has not seen this resource's tokens, so it cannot predict one (a
        // prediction from the client above would happen to land above the lost counters).
        Redlock otherUnsafe = Cluster.withoutMarkerCheckUnsafe(Cluster.config(nodes).build())) {
      long before = 0;
      for (int i = 0; i < 5; i++) {
        try (Lease lease = unsafe.acquire("amnesia:control", TTL, LockTiming.RETRY_WAIT)) {
          before = lease.fencingToken();
        }
      }
      // A majority loses its memory and answers while the two nodes that remember are away.
      nodes.node(3).kill();
      nodes.node(4).kill();
      for (int i = 0; i < 3; i++) {
        nodes.node(i).restart(Persistence.NONE);
      }

      Lease after = otherUnsafe.acquire("amnesia:control", TTL, Duration.ofSeconds(2));

      assertThat(after.fencingToken()).isLessThan(before);
    }
  }

  @Test
  void restartWithoutData_afterMaxLeaseTtl_isReadmittedAboveEveryToken() {
    try (RedisNodes nodes = RedisNodes.start(5, Persistence.AOF_ALWAYS);
        Redlock redlock =
            Redlock.create(Cluster.config(nodes).maxLeaseTtl(Duration.ofSeconds(1)).build())) {
      long last = 0;
      for (int i = 0; i < 5; i++) {
        try (Lease lease =
            redlock.acquire("amnesia:readmit", Duration.ofMillis(500), LockTiming.RETRY_WAIT)) {
          last = lease.fencingToken();
        }
      }
      nodes.node(0).restart(Persistence.NONE);

      // Acquires keep going through the other four; one of them re-admits node 0 once its wait is
      // over.
      await()
          .atMost(Timing.AWAIT)
          .until(
              () -> {
                redlock
                    .tryAcquire("amnesia:other", Duration.ofMillis(500))
                    .ifPresent(Lease::release);
                return Long.valueOf(1).equals(nodes.node(0).command("EXISTS", MARKER));
              });
      long epoch = Long.parseLong((String) nodes.node(0).command("GET", MARKER));
      assertThat(epoch).isGreaterThan(last);

      nodes.node(3).kill();
      nodes.node(4).kill();
      Optional<Lease> lease = redlock.tryAcquire("amnesia:readmit", Duration.ofMillis(500));
      assertThat(lease).as("node 0 counts again").isPresent();
      assertThat(lease.get().fencingToken()).isGreaterThan(last);
      lease.get().release();
    }
  }

  /**
   * A node wiped, re-admitted by another client, and wiped again must be excluded for maxLeaseTtl
   * from its second wipe, even by a client whose last look at it was during the first one.
   * Otherwise that client re-admits it at once and a quorum forms without a lease the node forgot:
   * two valid leases on one resource.
   */
  @Test
  void secondWipe_clientThatSawTheFirstOne_excludesTheNodeAgain() {
    Duration maxLeaseTtl = Duration.ofSeconds(60);
    Duration pastReadmission = maxLeaseTtl.multipliedBy(2);
    FakeTicker clockA = new FakeTicker();
    FakeTicker clockB = new FakeTicker();
    try (RedisNodes nodes = RedisNodes.start(5, Persistence.AOF_ALWAYS);
        Redlock a =
            Redlock.create(Cluster.config(nodes).maxLeaseTtl(maxLeaseTtl).ticker(clockA).build());
        Redlock b =
            Redlock.create(Cluster.config(nodes).maxLeaseTtl(maxLeaseTtl).ticker(clockB).build());
        Redlock holder = Redlock.create(Cluster.config(nodes).maxLeaseTtl(maxLeaseTtl).build())) {
      holder
          .acquire("amnesia:warm-up", TTL, LockTiming.RETRY_WAIT)
          .release(); // the deployment is initialized
      nodes.node(0).restart(Persistence.NONE);
      seeNodeZeroEmpty(nodes, a);
      seeNodeZeroEmpty(nodes, b);

      // B's wait is over: it re-admits node 0.
      clockB.advance(pastReadmission);
      await()
          .atMost(Timing.AWAIT)
          .until(
              () -> {
                b.tryAcquire("amnesia:probe-b", Duration.ofSeconds(1)).ifPresent(Lease::release);
                return Long.valueOf(1).equals(nodes.node(0).command("EXISTS", MARKER));
              });

      // The holder locks on nodes 0, 1 and 2 (3 and 4 are down, so its requests never reach
      // them); then node 0 forgets it.
      nodes.node(3).kill();
      nodes.node(4).kill();
      Lease held = holder.acquire("amnesia:twice", maxLeaseTtl, LockTiming.RETRY_WAIT);
      nodes.node(3).restart();
      nodes.node(4).restart();
      nodes.node(0).restart(Persistence.NONE);

      // A last looked at node 0 during its first wipe, more than maxLeaseTtl ago by its clock.
      // It reconnects to the restarted nodes and sees node 0 empty again.
      clockA.advance(pastReadmission);
      await()
          .atMost(Timing.AWAIT)
          .until(
              () ->
                  a.tryAcquire("amnesia:probe-a", Duration.ofSeconds(1))
                      .map(lease -> lease.release() || true)
                      .orElse(false));
      int attemptsAfterFirstSeen = 0;
      Lease stolen = null;
      long deadline = System.nanoTime() + Timing.AWAIT.toNanos();
      while (stolen == null && attemptsAfterFirstSeen < 20 && System.nanoTime() < deadline) {
        stolen = a.tryAcquire("amnesia:twice", Duration.ofSeconds(1)).orElse(null);
        if (nodes.node(0).command("EXISTS", EMPTY_SINCE).equals(1L)) {
          attemptsAfterFirstSeen++; // the client has seen this incarnation of the empty node
        }
      }

      assertThat(stolen).as("granted while the holder's lease is valid").isNull();
      assertThat(attemptsAfterFirstSeen).as("the client saw node 0's second wipe").isEqualTo(20);
      assertThat(nodes.node(0).command("EXISTS", MARKER))
          .as("node 0 re-admitted at once")
          .isEqualTo(0L);
      assertThat(held.isValid()).isTrue();
    }
  }

  /**
   * Makes {@code client} see node 0 without its marker: with nodes 3 and 4 paused, its attempt can
   * decide only after node 0's reply has arrived (and been observed).
   */
  private static void seeNodeZeroEmpty(RedisNodes nodes, Redlock client) {
    nodes.node(3).pause();
    nodes.node(4).pause();
    try {
      await()
          .atMost(Timing.AWAIT)
          .until(
              () -> {
                try {
                  client.acquire("amnesia:look", TTL, Duration.ZERO).release();
                  return false;
                } catch (LockAcquisitionException e) {
                  return e.outcomes().get(0).status() == NodeStatus.UNINITIALIZED;
                }
              });
    } finally {
      nodes.node(3).resume();
      nodes.node(4).resume();
    }
  }
}

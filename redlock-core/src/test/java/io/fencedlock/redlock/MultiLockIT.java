package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Several resources locked at once: all or nothing on each node, a token per resource. */
final class MultiLockIT {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static RedisNodes nodes;
  private Redlock redlock;
  private String a;
  private String b;
  private String c;

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
    String name = test.getTestMethod().orElseThrow().getName();
    a = "multi:" + name + ":a";
    b = "multi:" + name + ":b";
    c = "multi:" + name + ":c";
    redlock = Redlock.create(Cluster.config(nodes).build());
  }

  @AfterEach
  void tearDown() {
    Cluster.heal(nodes);
    redlock.close();
  }

  @Test
  void extend_beyondMaxExtensions_throwsIllegalState() {
    try (Redlock capped = Redlock.create(Cluster.config(nodes).maxExtensions(1).build());
        MultiLease lease = capped.acquireAll(List.of(a, b), TTL, LockTiming.RETRY_WAIT)) {
      assertThat(lease.extend(TTL)).isTrue();
      assertThatThrownBy(() -> lease.extend(TTL))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("RedlockConfig.Builder.maxExtensions");
    }
  }

  @Test
  void acquireAll_freeResources_locksEachWithItsOwnTokenAndReleasesAll() {
    MultiLease lease = redlock.acquireAll(List.of(a, b, c), TTL, LockTiming.RETRY_WAIT);

    assertThat(lease.resources()).containsExactly(a, b, c);
    for (String resource : List.of(a, b, c)) {
      assertThat(lease.fencingToken(resource)).isPositive();
      assertThat(Cluster.holdingValue(nodes, resource, lease.ownerId())).isGreaterThanOrEqualTo(3);
    }
    assertThat(lease.isValid()).isTrue();
    assertThat(lease.extend(TTL)).isTrue();

    assertThat(lease.release()).isTrue();
    for (String resource : List.of(a, b, c)) {
      Cluster.awaitNoKey(nodes, resource);
    }
  }

  @Test
  void acquireAll_oneResourceHeldElsewhere_failsAndHoldsNothingAnywhere() {
    try (Lease held = redlock.acquire(b, TTL, LockTiming.RETRY_WAIT)) {
      assertThatThrownBy(() -> redlock.acquireAll(List.of(a, b, c), TTL, Duration.ZERO))
          .isInstanceOf(LockAcquisitionException.class);

      for (RedisNode node : nodes) {
        assertThat(node.command("EXISTS", a, c)).as("never half-held on %s", node).isEqualTo(0L);
      }
    }
  }

  @Test
  void acquireAll_oneResourceHeldOnTwoNodes_takesAllOnTheOtherThreeAndNothingOnThoseTwo() {
    for (int i = 0; i < 2; i++) {
      nodes.node(i).command("SET", a, "foreign-owner", "PX", "30000");
    }

    MultiLease lease = redlock.acquireAll(List.of(a, b), TTL, LockTiming.RETRY_WAIT);

    await().atMost(Timing.AWAIT).until(() -> Cluster.holdingValue(nodes, b, lease.ownerId()) == 3);
    for (int i = 0; i < 2; i++) {
      assertThat(nodes.node(i).command("GET", a)).isEqualTo("foreign-owner");
      assertThat(nodes.node(i).command("EXISTS", b))
          .as("all or nothing on node %d", i)
          .isEqualTo(0L);
    }
    lease.release();
  }

  @Test
  void tokens_singleAndMultiAcquiresOfOneResource_increaseAcrossBoth() {
    long single;
    try (Lease lease = redlock.acquire(a, TTL, LockTiming.RETRY_WAIT)) {
      single = lease.fencingToken();
    }
    long multi;
    try (MultiLease lease = redlock.acquireAll(List.of(b, a), TTL, LockTiming.RETRY_WAIT)) {
      multi = lease.fencingToken(a);
    }
    try (Lease lease = redlock.acquire(a, TTL, LockTiming.RETRY_WAIT)) {
      assertThat(multi).isGreaterThan(single);
      assertThat(lease.fencingToken()).isGreaterThan(multi);
    }
  }

  @Test
  void acquireAll_majorityPaused_failsAndLeavesNoKeyOnceTheNodesAnswer() {
    for (int i = 0; i < 3; i++) {
      nodes.node(i).pause();
    }

    assertThatThrownBy(() -> redlock.acquireAll(List.of(a, b), TTL, Duration.ZERO))
        .isInstanceOf(LockAcquisitionException.class);

    Cluster.heal(nodes);
    Cluster.awaitNoKey(nodes, a);
    Cluster.awaitNoKey(nodes, b);
  }

  @Test
  void acquireAll_badInput_throwsIllegalArgument() {
    assertThatThrownBy(() -> redlock.acquireAll(List.of(), TTL, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> redlock.acquireAll(List.of(a, a), TTL, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> redlock.acquireAll(List.of(a, "{x}"), TTL, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

package io.fencedlock.chaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.chaos.fixture.ChaosCluster;
import io.fencedlock.chaos.fixture.ClusterSpec;
import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The appliers against the real fixture: each fault does what it says to the clients that go
 * through the proxies, and heals. One cluster for the class; every test ends with a final heal.
 */
final class NemesisIT {
  private static final Duration TTL = Timing.scaled(Duration.ofSeconds(2));

  /** How long an acquire that should succeed may retry: through a heal, on a busy machine. */
  private static final Duration MAX_WAIT = Timing.scaled(Duration.ofSeconds(5));

  private static ChaosCluster cluster;
  private static Nemesis nemesis;

  @BeforeAll
  static void start() {
    cluster = ChaosCluster.start(ClusterSpec.of(5, 2, Persistence.AOF_ALWAYS, 7));
    nemesis =
        new Nemesis(
            List.of(
                new ProxyFaults(cluster.links()),
                new NodeFaults(cluster.nodes()),
                new ClockStepFaults(cluster.nodes(), () -> List.of("nemesis:clock"))));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @AfterEach
  void heal() {
    nemesis.healAll();
  }

  private static Redlock client(int c) {
    return Redlock.create(
        RedlockConfig.builder()
            .nodes(cluster.urisOf(c))
            .nodeTimeout(Timing.scaled(Duration.ofMillis(250)))
            .retryDelay(Duration.ofMillis(20))
            .retryJitter(Duration.ofMillis(20))
            .build());
  }

  @Test
  void kleppmannSplit_eachClientLocksThroughItsOwnMajority() {
    nemesis.apply(
        1, new Fault.Partition("split", Grudges.kleppmannSplit(2, 5), Fault.CutMode.REFUSE));
    try (Redlock c0 = client(0);
        Redlock c1 = client(1)) {
      try (Lease lease = c0.acquire("nemesis:split-a", TTL, MAX_WAIT)) {
        // Without clock faults the shared node still refuses the second client: exclusion holds.
        assertThat(c1.tryAcquire("nemesis:split-a", TTL)).isEmpty();
      }
      try (Lease lease = c1.acquire("nemesis:split-b", TTL, MAX_WAIT)) {
        assertThat(lease.isValid()).isTrue();
      }
    }
  }

  @Test
  void refusePartitionOfAMajority_acquireFailsWithNodeErrorsThenHealRestores() {
    Set<Link> cut = Grudges.allLose(1, Set.of(0, 1, 2));
    nemesis.apply(2, new Fault.Partition("majority", cut, Fault.CutMode.REFUSE));
    try (Redlock c0 = client(0)) {
      assertThatThrownBy(() -> c0.acquire("nemesis:majority", TTL, Duration.ZERO))
          .isInstanceOfSatisfying(
              LockAcquisitionException.class,
              e ->
                  assertThat(e.outcomes().subList(0, 3))
                      .noneMatch(o -> o.status() == NodeStatus.GRANTED));

      nemesis.heal(2, new Fault.Partition("majority", cut, Fault.CutMode.REFUSE));

      try (Lease lease = c0.acquire("nemesis:majority", TTL, MAX_WAIT)) {
        assertThat(lease.isValid()).isTrue();
      }
    }
  }

  @Test
  void blackholeOfAMajority_connectedClientTimesOut() {
    try (Redlock c0 = client(0)) {
      c0.acquire("nemesis:blackhole", TTL, MAX_WAIT).release(); // connections are up
      nemesis.apply(
          3,
          new Fault.Partition("bh", Grudges.allLose(1, Set.of(2, 3, 4)), Fault.CutMode.BLACKHOLE));

      // Bytes vanish but the connections stay open: the nodes time out rather than refuse.
      assertThatThrownBy(() -> c0.acquire("nemesis:blackhole", TTL, Duration.ZERO))
          .isInstanceOfSatisfying(
              LockAcquisitionException.class,
              e ->
                  assertThat(e.outcomes().subList(2, 5))
                      .allMatch(
                          o ->
                              o.status() == NodeStatus.TIMED_OUT
                                  || o.status() == NodeStatus.NO_REPLY_YET));
    }
  }

  @Test
  void clockStep_pttlModel_cutsTheRemainingTtlOfLockKeys() {
    cluster.nodes().node(0).command("SET", "nemesis:clock", "owner", "PX", "60000");
    cluster.nodes().node(1).command("SET", "nemesis:clock", "owner", "PX", "60000");

    nemesis.apply(4, new Fault.ClockStep(new TreeSet<>(Set.of(0)), 50_000));

    assertThat((Long) cluster.nodes().node(0).command("PTTL", "nemesis:clock"))
        .isBetween(1L, 10_000L);
    assertThat((Long) cluster.nodes().node(1).command("PTTL", "nemesis:clock"))
        .isGreaterThan(50_000L);
  }

  @Test
  void pauseAndKill_thenFinalHeal_everyNodeAnswersAgain() {
    nemesis.apply(5, new Fault.PauseNodes(new TreeSet<>(Set.of(0))));
    nemesis.apply(
        6,
        new Fault.KillNodes(
            new TreeSet<>(Set.of(1)), Persistence.AOF_ALWAYS, Fault.Rejoin.AT_HEAL));
    assertThat(cluster.nodes().node(0).isPaused()).isTrue();
    assertThat(cluster.nodes().node(1).isRunning()).isFalse();

    nemesis.healAll();

    assertThat(cluster.nodes().nodes())
        .allSatisfy(n -> assertThat(n.command("PING")).isEqualTo("PONG"));
  }
}

package io.fencedlock.bench;

import static io.fencedlock.bench.Conditions.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver floor against real redis-server processes: it must do the work it claims to measure
 * (take the key and write the predicted token on a quorum, release everywhere, name and announce
 * from the lead node when it names), or its figures would say nothing about the library's. A
 * deleted key is told from an expired one by removing its TTL first, or by a bound below it.
 */
final class DriverFloorSystemIT {
  private static RedisNodes redis;

  @BeforeAll
  static void startNodes() {
    redis = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    redis.close();
  }

  @Test
  void acquire_writesThePredictedTokenOnAQuorum_andReleaseDeletesTheKeyEverywhere() {
    try (DriverFloorSystem system =
        new DriverFloorSystem(DriverFloorSystem.NAME, redis.uris(), 3)) {
      LockSystem.Held held = system.acquire("it:taken", Duration.ZERO);

      assertThat(nodesWhere("d:it:taken", null)).isGreaterThanOrEqualTo(3);
      assertThat(nodesWhere("{d:it:taken}:fence", "1")).isGreaterThanOrEqualTo(3);
      await(() -> nodesWhere("d:it:taken", null) == 5); // every lock step has run
      for (int i = 0; i < 5; i++) {
        redis.node(i).command("PERSIST", "d:it:taken"); // gone below only if a release deleted it
      }
      held.release();
      await(() -> nodesWhere("d:it:taken", null) == 0);

      system.acquire("it:taken", Duration.ZERO).release();
      assertThat(nodesWhere("{d:it:taken}:fence", "2")).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void acquire_whileHeld_isNotGranted_andTheHolderKeepsTheKey() {
    try (DriverFloorSystem system =
        new DriverFloorSystem(DriverFloorSystem.NAME, redis.uris(), 3)) {
      LockSystem.Held held = system.acquire("it:held", Duration.ZERO);
      await(() -> nodesWhere("d:it:held", null) == 5);
      String holder = (String) redis.node(0).command("GET", "d:it:held");

      assertThatThrownBy(() -> system.acquire("it:held", Duration.ZERO))
          .isInstanceOf(NotGrantedException.class);
      assertThat(nodesWhere("d:it:held", holder)).isEqualTo(5);
      held.release();
    }
  }

  @Test
  void acquire_belowTheNodesCounter_failsOnce_thenPredictsAboveIt() {
    for (int i = 0; i < 5; i++) {
      redis.node(i).command("SET", "{d:it:behind}:fence", "100");
    }
    try (DriverFloorSystem system =
        new DriverFloorSystem(DriverFloorSystem.NAME, redis.uris(), 3)) {
      assertThatThrownBy(() -> system.acquire("it:behind", Duration.ZERO))
          .isInstanceOf(NotGrantedException.class);
      // The failed attempt undid itself: a quorum of deletes before it threw, the rest soon after
      // (well before the key's TTL would remove it).
      assertThat(nodesWhere("d:it:behind", null)).isLessThanOrEqualTo(2);
      await(BenchTiming.LEASE_TTL.dividedBy(2), () -> nodesWhere("d:it:behind", null) == 0);

      system.acquire("it:behind", Duration.ZERO).release();
      assertThat(nodesWhere("{d:it:behind}:fence", "101")).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void namedRelease_namesAndAnnouncesFromTheLeadNodeOnly() {
    for (String name : new String[] {DriverFloorSystem.NAME, DriverFloorSystem.NAMED}) {
      try (DriverFloorSystem system = new DriverFloorSystem(name, redis.uris(), 3)) {
        String lockKey = system.lockKey("it:announced");
        int lead = DriverFloorSystem.leadOf(lockKey, 5);
        LockSystem.Held held = system.acquire("it:announced", Duration.ZERO);
        await(() -> nodesWhere(lockKey, null) == 5);
        for (int i = 0; i < 5; i++) {
          redis.node(i).command("PERSIST", lockKey);
          redis.node(i).command("CONFIG", "RESETSTAT");
        }
        held.release();
        await(() -> nodesWhere(lockKey, null) == 0);

        boolean named = name.equals(DriverFloorSystem.NAMED);
        for (int i = 0; i < 5; i++) {
          // release.lua's naming path looks for a queue (EXISTS) before it announces (PUBLISH).
          int expected = named && i == lead ? 1 : 0;
          assertThat(CommandStats.calls(redis.node(i), "exists"))
              .as(name + ": EXISTS on node " + i)
              .isEqualTo(expected);
          assertThat(CommandStats.calls(redis.node(i), "publish"))
              .as(name + ": PUBLISH on node " + i)
              .isEqualTo(expected);
        }
      }
    }
  }

  /** How many nodes hold {@code key}, with {@code value} if it is not null. */
  private static int nodesWhere(String key, String value) {
    int count = 0;
    for (int i = 0; i < 5; i++) {
      Object stored = redis.node(i).command("GET", key);
      if (stored != null && (value == null || value.equals(stored))) {
        count++;
      }
    }
    return count;
  }
}

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
 * (take the key and write the predicted token on a quorum, release everywhere, announce from node 0
 * when it names), or its figures would say nothing about the library's.
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
      await(() -> nodesWhere("d:it:behind", null) == 0); // the failed attempt undid itself

      system.acquire("it:behind", Duration.ZERO).release();
      assertThat(nodesWhere("{d:it:behind}:fence", "101")).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void namedRelease_announcesFromNodeZeroOnly() {
    for (String name : new String[] {DriverFloorSystem.NAME, DriverFloorSystem.NAMED}) {
      try (DriverFloorSystem system = new DriverFloorSystem(name, redis.uris(), 3)) {
        String resource = "it:announced:" + name; // each system predicts from 1 on its own
        LockSystem.Held held = system.acquire(resource, Duration.ZERO);
        for (int i = 0; i < 5; i++) {
          redis.node(i).command("CONFIG", "RESETSTAT");
        }
        held.release();
        await(() -> nodesWhere("d:" + resource, null) == 0);

        assertThat(publishes(0)).as(name).isEqualTo(name.equals(DriverFloorSystem.NAMED) ? 1 : 0);
        for (int i = 1; i < 5; i++) {
          assertThat(publishes(i)).as(name + " on node " + i).isZero();
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

  /** The PUBLISH calls node {@code i} counted since its last CONFIG RESETSTAT. */
  private static long publishes(int i) {
    String stats = (String) redis.node(i).command("INFO", "commandstats");
    for (String line : stats.split("\r\n")) {
      if (line.startsWith("cmdstat_publish:calls=")) {
        return Long.parseLong(line.substring("cmdstat_publish:calls=".length()).split(",")[0]);
      }
    }
    return 0;
  }
}

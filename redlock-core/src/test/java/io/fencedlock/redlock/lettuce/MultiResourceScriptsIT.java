package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.spi.MultiLockReply;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * acquire-all, fence-all, extend-all and release-all on a real Redis, through the Lettuce driver.
 */
final class MultiResourceScriptsIT {
  private static final List<String> LOCKS = List.of("s:a", "s:b");
  private static final List<String> FENCES = List.of("{s:a}:fence", "{s:b}:fence");
  private static RedisNodes nodes;
  private static RedisNode redis;
  private static LettuceNodeDriver driver;

  @BeforeAll
  static void start() {
    nodes = RedisNodes.start(1);
    redis = nodes.node(0);
    driver =
        LettuceNodeDriver.open(
            RedlockConfig.builder().nodes(nodes.uris()).nodeTimeout(Timing.AWAIT).build());
    driver.connect(Timing.AWAIT);
  }

  @AfterAll
  static void stop() {
    driver.close();
    nodes.close();
  }

  @BeforeEach
  void empty() {
    redis.command("FLUSHALL");
    redis.command("SET", NodeKeys.MARKER, "5000");
    redis.command("SET", NodeKeys.HIGH_WATER, "5000");
  }

  @Test
  void acquireAll_newCounters_grantsEveryLockAndReadsTheEpochAsTheirFloor() {
    redis.command("SET", FENCES.get(1), "7000");

    MultiLockReply reply = driver.lockAll(0, LOCKS, FENCES, "owner-a", 30_000).join();

    assertThat(reply).isEqualTo(new MultiLockReply.Granted(List.of(5000L, 7000L)));
    assertThat(redis.command("GET", "s:a")).isEqualTo("owner-a");
    assertThat(redis.command("GET", "s:b")).isEqualTo("owner-a");
  }

  @Test
  void acquireAll_oneLockHeldByAnother_refusesAndWritesNothing() {
    redis.command("SET", "s:b", "owner-b", "PX", "30000");

    MultiLockReply reply = driver.lockAll(0, LOCKS, FENCES, "owner-a", 30_000).join();

    assertThat(reply)
        .isInstanceOfSatisfying(
            MultiLockReply.Refused.class,
            refused -> {
              assertThat(refused.index()).isEqualTo(1);
              assertThat(refused.holder()).isEqualTo("owner-b");
            });
    assertThat(redis.command("EXISTS", "s:a")).isEqualTo(0L);
  }

  @Test
  void acquireAll_noMarker_isUninitializedAndWritesNothing() {
    redis.command("DEL", NodeKeys.MARKER);

    assertThat(driver.lockAll(0, LOCKS, FENCES, "owner-a", 30_000).join())
        .isInstanceOf(MultiLockReply.Uninitialized.class);
    assertThat(redis.command("EXISTS", "s:a", "s:b")).isEqualTo(0L);
  }

  @Test
  void writeTokens_locksOurs_raisesCountersAndTheHighWaterMarkNeverLowersThem() {
    driver.lockAll(0, LOCKS, FENCES, "owner-a", 30_000).join();
    redis.command("SET", FENCES.get(0), "9000");

    assertThat(driver.writeTokens(0, LOCKS, FENCES, "owner-a", List.of(6000L, 8000L)).join())
        .isTrue();

    assertThat(redis.command("GET", FENCES.get(0))).isEqualTo("9000"); // never lowered
    assertThat(redis.command("GET", FENCES.get(1))).isEqualTo("8000");
    assertThat(redis.command("GET", NodeKeys.HIGH_WATER)).isEqualTo("8000");
  }

  @Test
  void writeTokens_oneLockNoLongerOurs_writesNothing() {
    driver.lockAll(0, LOCKS, FENCES, "owner-a", 30_000).join();
    redis.command("SET", "s:b", "owner-b");

    assertThat(driver.writeTokens(0, LOCKS, FENCES, "owner-a", List.of(6000L, 8000L)).join())
        .isFalse();

    assertThat(redis.command("EXISTS", FENCES.get(0), FENCES.get(1))).isEqualTo(0L);
    assertThat(redis.command("GET", NodeKeys.HIGH_WATER)).isEqualTo("5000");
  }

  @Test
  void lengthenAndReleaseAll_allOrNothingAndOnlyOurs() {
    driver.lockAll(0, LOCKS, FENCES, "owner-a", 1_000).join();
    assertThat(driver.lengthenAll(0, LOCKS, "owner-a", 30_000).join()).isTrue();
    assertThat((Long) redis.command("PTTL", "s:b")).isGreaterThan(20_000L);

    redis.command("SET", "s:b", "owner-b", "PX", "1000");
    assertThat(driver.lengthenAll(0, LOCKS, "owner-a", 60_000).join()).isFalse();
    assertThat((Long) redis.command("PTTL", "s:a")).isLessThanOrEqualTo(30_000L); // nothing written

    assertThat(driver.releaseAll(0, LOCKS, "owner-a", null).join()).isEqualTo(1L);
    assertThat(redis.command("EXISTS", "s:a")).isEqualTo(0L);
    assertThat(redis.command("GET", "s:b")).isEqualTo("owner-b");
  }
}

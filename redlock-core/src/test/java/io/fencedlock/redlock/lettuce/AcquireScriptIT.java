package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** acquire.lua on a real Redis: what it returns and what it writes, case by case. */
final class AcquireScriptIT {
  private static final String LOCK = "script:lock";
  private static final String FENCE = "{script:lock}:fence";
  private static RedisNodes nodes;
  private static RedisNode redis;

  @BeforeAll
  static void start() {
    nodes = RedisNodes.start(1);
    redis = nodes.node(0);
  }

  @AfterAll
  static void stop() {
    nodes.close();
  }

  @BeforeEach
  void empty() {
    redis.command("FLUSHALL");
    redis.command("SET", NodeKeys.MARKER, "5000");
    redis.command("SET", NodeKeys.HIGH_WATER, "5000");
  }

  @Test
  void noPrediction_newCounter_grantsAndReturnsTheEpochWithoutWriting() {
    assertThat(acquire("owner-a", "0")).isEqualTo(List.of(1L, "5000", 0L));

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-a");
    assertThat(redis.command("EXISTS", FENCE)).isEqualTo(0L);
  }

  @Test
  void predictionAboveCounter_writesItToTheCounterAndHighWaterMark() {
    redis.command("SET", FENCE, "5007");

    assertThat(acquire("owner-a", "5008")).isEqualTo("5008"); // the token alone: written

    assertThat(redis.command("GET", FENCE)).isEqualTo("5008");
    assertThat(redis.command("GET", NodeKeys.HIGH_WATER)).isEqualTo("5008");
  }

  @Test
  void predictionAboveCounter_belowHighWaterMark_keepsTheHigherMark() {
    redis.command("SET", NodeKeys.HIGH_WATER, "9000");

    assertThat(acquire("owner-a", "5001")).isEqualTo("5001"); // the token alone: written

    assertThat(redis.command("GET", NodeKeys.HIGH_WATER)).isEqualTo("9000");
  }

  @Test
  void predictionNotAboveCounter_grantsTheLockButWritesNothing() {
    redis.command("SET", FENCE, "5008");

    assertThat(acquire("owner-a", "5008")).isEqualTo(List.of(1L, "5008", 0L));
    redis.command("DEL", LOCK);
    assertThat(acquire("owner-b", "5003")).isEqualTo(List.of(1L, "5008", 0L));

    assertThat(redis.command("GET", FENCE)).isEqualTo("5008");
    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-b");
  }

  @Test
  void heldByAnother_refusesWithTtlCounterAndHolder_andWritesNothing() {
    redis.command("SET", FENCE, "5010");
    redis.command("SET", LOCK, "owner-a", "PX", "60000");

    List<?> reply = (List<?>) acquire("owner-b", "9999");

    assertThat(reply.get(0)).isEqualTo(0L);
    assertThat((Long) reply.get(1)).isPositive().isLessThanOrEqualTo(60_000L);
    assertThat(reply.get(2)).isEqualTo("5010");
    assertThat(reply.get(3)).isEqualTo("owner-a");
    assertThat(redis.command("GET", FENCE)).isEqualTo("5010");
    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-a");
  }

  @Test
  void predictionNotAboveTheEpoch_newCounter_writesNothing() {
    // After a re-admission the marker's epoch is above every earlier token: a stale prediction
    // below it must not become a counter, or a later lease could get a smaller token.
    assertThat(acquire("owner-a", "4000")).isEqualTo(List.of(1L, "5000", 0L));

    assertThat(redis.command("EXISTS", FENCE)).isEqualTo(0L);
    assertThat(redis.command("GET", NodeKeys.HIGH_WATER)).isEqualTo("5000");
  }

  @Test
  void sameRequestDeliveredTwice_isGrantedAgain_notRefused() {
    redis.command("SET", FENCE, "5007");
    assertThat(acquire("owner-a", "5008")).isEqualTo("5008"); // the token alone: written

    // A refusal must always mean another owner: the client skips its cleanup there.
    assertThat(acquire("owner-a", "5008")).isEqualTo(List.of(1L, "5008", 0L));

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-a");
  }

  @Test
  void markerMissing_refusesAsUninitialized_andWritesNothing() {
    redis.command("DEL", NodeKeys.MARKER);

    assertThat(acquire("owner-a", "5008")).isEqualTo(List.of(-1L, 0L, 0L));

    assertThat(redis.command("EXISTS", LOCK)).isEqualTo(0L);
    assertThat(redis.command("EXISTS", FENCE)).isEqualTo(0L);
  }

  @Test
  void handoff_predecessorHoldsTheLock_deletesItAndGrants() {
    redis.command("SET", FENCE, "5007");
    redis.command("SET", LOCK, "owner-a", "PX", "60000");

    assertThat(handoff("owner-b", "5008", "1", "owner-a"))
        .isEqualTo("5008"); // the token alone: written

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-b");
    assertThat(redis.command("GET", FENCE)).isEqualTo("5008");
  }

  @Test
  void handoff_anotherOwnerHoldsTheLock_deletesNothingAndRefuses() {
    redis.command("SET", LOCK, "owner-c", "PX", "60000");

    assertThat((List<?>) handoff("owner-b", "0", "1", "owner-a")).first().isEqualTo(0L);

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-c");
  }

  @Test
  void handoff_markerMissing_stillDeletesThePredecessorButLocksNothing() {
    redis.command("DEL", NodeKeys.MARKER);
    redis.command("SET", LOCK, "owner-a", "PX", "60000");

    assertThat(handoff("owner-b", "0", "1", "owner-a")).isEqualTo(List.of(-1L, 0L, 0L));

    assertThat(redis.command("EXISTS", LOCK)).isEqualTo(0L);
  }

  /** The token alone when acquire.lua wrote it, else its array. */
  private static Object acquire(String owner, String predicted) {
    return lockStep(owner, "1", predicted);
  }

  /** acquire.lua as a local handoff sends it: the predecessor's owner id as ARGV[5]. */
  private static Object handoff(String owner, String predicted, String check, String predecessor) {
    return lockStep(owner, check, predicted, predecessor);
  }

  /** acquire.lua on LOCK for {@code owner} and 60 s, with ARGV[3] onwards as given. */
  private static Object lockStep(String owner, String... fromCheckOn) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "EVAL",
                LuaScript.ACQUIRE.source(),
                "4",
                LOCK,
                FENCE,
                NodeKeys.MARKER,
                NodeKeys.HIGH_WATER,
                owner,
                "60000"));
    command.addAll(List.of(fromCheckOn));
    return redis.command(command.toArray(String[]::new));
  }
}

package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** handoff.lua (an unfenced handoff's lock step) on a real Redis, case by case. */
final class HandoffScriptIT {
  private static final String LOCK = "script:handoff";
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
  }

  @Test
  void predecessorHoldsTheLock_deletesItAndGrantsTouchingNothingElse() {
    redis.command("SET", LOCK, "owner-a", "PX", "60000");

    assertThat(handoff("owner-b", "owner-a")).containsExactly(1L, 0L, 0L);

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-b");
    assertThat((Long) redis.command("PTTL", LOCK)).isPositive().isLessThanOrEqualTo(60_000L);
    assertThat(redis.command("DBSIZE")).isEqualTo(1L);
  }

  @Test
  void anotherOwnerHoldsTheLock_deletesNothingAndRefusesWithItsTtlAndName() {
    redis.command("SET", LOCK, "owner-c", "PX", "60000");

    List<Object> reply = handoff("owner-b", "owner-a");

    assertThat(reply.get(0)).isEqualTo(0L);
    assertThat((Long) reply.get(1)).isPositive().isLessThanOrEqualTo(60_000L);
    assertThat(reply.get(3)).isEqualTo("owner-c");
    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-c");
  }

  @Test
  void lockFree_grants() {
    assertThat(handoff("owner-b", "owner-a")).containsExactly(1L, 0L, 0L);

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-b");
  }

  @Test
  void sameRequestDeliveredTwice_isGrantedAgain_notRefused() {
    redis.command("SET", LOCK, "owner-a", "PX", "60000");
    assertThat(handoff("owner-b", "owner-a")).containsExactly(1L, 0L, 0L);

    assertThat(handoff("owner-b", "owner-a")).containsExactly(1L, 0L, 0L);

    assertThat(redis.command("GET", LOCK)).isEqualTo("owner-b");
  }

  @SuppressWarnings("unchecked")
  private static List<Object> handoff(String owner, String predecessor) {
    return (List<Object>)
        redis.command("EVAL", LuaScript.HANDOFF.source(), "1", LOCK, owner, "60000", predecessor);
  }
}

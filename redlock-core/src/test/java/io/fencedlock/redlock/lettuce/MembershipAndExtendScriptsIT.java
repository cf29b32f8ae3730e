package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** extend.lua, name-empty-node.lua and init-node.lua on a real Redis, case by case. */
final class MembershipAndExtendScriptsIT {
  private static final String LOCK = "script:lock";
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
  void extend_longerThanTheKeyHas_raisesItsExpiry() {
    redis.command("SET", LOCK, "owner-a", "PX", "1000");

    assertThat(extend("owner-a", "30000")).isEqualTo(1L);

    assertThat((Long) redis.command("PTTL", LOCK)).isGreaterThan(20_000L);
  }

  @Test
  void extend_shorterThanTheKeyHas_confirmsAndLeavesItsExpiry() {
    redis.command("SET", LOCK, "owner-a", "PX", "30000");

    assertThat(extend("owner-a", "100")).isEqualTo(1L);

    assertThat((Long) redis.command("PTTL", LOCK)).isGreaterThan(20_000L);
  }

  @Test
  void extend_anotherOwnersKeyOrNoKey_refusesAndWritesNothing() {
    assertThat(extend("owner-a", "30000")).isEqualTo(0L);
    assertThat(redis.command("EXISTS", LOCK)).isEqualTo(0L);

    redis.command("SET", LOCK, "owner-b", "PX", "1000");
    assertThat(extend("owner-a", "30000")).isEqualTo(0L);
    assertThat((Long) redis.command("PTTL", LOCK)).isLessThanOrEqualTo(1000L);
  }

  @Test
  void nameEmptyNode_firstLook_namesTheIncarnationAndLaterLooksReadTheSameName() {
    assertThat(nameEmptyNode("id-1")).isEqualTo("id-1");
    assertThat(nameEmptyNode("id-2")).isEqualTo("id-1");
    assertThat(redis.command("GET", NodeKeys.EMPTY)).isEqualTo("id-1");
  }

  @Test
  void nameEmptyNode_nodeHasItsMarker_answersEmptyAndWritesNothing() {
    redis.command("SET", NodeKeys.MARKER, "5000");

    assertThat(nameEmptyNode("id-1")).isEmpty();
    assertThat(redis.command("EXISTS", NodeKeys.EMPTY)).isEqualTo(0L);
  }

  @Test
  void initNode_readmissionOfTheIncarnationWaitedOut_setsMarkerAndHighWaterAndDropsTheName() {
    nameEmptyNode("id-1");

    assertThat(initNode("7000", "id-1")).containsExactly(1L, "7000");

    assertThat(redis.command("GET", NodeKeys.MARKER)).isEqualTo("7000");
    assertThat(redis.command("GET", NodeKeys.HIGH_WATER)).isEqualTo("7000");
    assertThat(redis.command("EXISTS", NodeKeys.EMPTY)).isEqualTo(0L);
  }

  @Test
  void initNode_nodeLostItsMemoryAgainSinceItWasSeen_refusesAndWritesNothing() {
    nameEmptyNode("id-1");
    redis.command("FLUSHALL"); // a second loss of memory: the name is gone with the rest
    nameEmptyNode("id-2"); // another client names the new incarnation

    assertThat(initNode("7000", "id-1")).containsExactly(-1L, "");
    assertThat(initNode("7000", "id-3")).containsExactly(-1L, "");

    assertThat(redis.command("EXISTS", NodeKeys.MARKER)).isEqualTo(0L);
    assertThat(redis.command("GET", NodeKeys.EMPTY)).isEqualTo("id-2");
  }

  @Test
  void initNode_unnamedIncarnation_refusesAReadmission() {
    assertThat(initNode("7000", "id-1")).containsExactly(-1L, "");
    assertThat(redis.command("EXISTS", NodeKeys.MARKER)).isEqualTo(0L);
  }

  @Test
  void initNode_markerAlreadyThere_keepsItAndReturnsIt() {
    redis.command("SET", NodeKeys.MARKER, "5000");

    assertThat(initNode("7000", null)).containsExactly(0L, "5000");
    assertThat(initNode("7000", "id-1")).containsExactly(0L, "5000");
    assertThat(redis.command("GET", NodeKeys.MARKER)).isEqualTo("5000");
  }

  @Test
  void initNode_newDeployment_setsTheMarkerWithoutAName() {
    assertThat(initNode("7000", null)).containsExactly(1L, "7000");
    assertThat(redis.command("GET", NodeKeys.MARKER)).isEqualTo("7000");
  }

  private static Object extend(String owner, String ttlMillis) {
    return redis.command("EVAL", LuaScript.EXTEND.source(), "1", LOCK, owner, ttlMillis);
  }

  private static String nameEmptyNode(String freshId) {
    return (String)
        redis.command(
            "EVAL",
            LuaScript.NAME_EMPTY_NODE.source(),
            "2",
            NodeKeys.MARKER,
            NodeKeys.EMPTY,
            freshId);
  }

  private static List<Object> initNode(String epoch, String incarnation) {
    String[] keys = {
      "EVAL",
      LuaScript.INIT_NODE.source(),
      "3",
      NodeKeys.MARKER,
      NodeKeys.HIGH_WATER,
      NodeKeys.EMPTY,
      epoch
    };
    String[] call = incarnation == null ? keys : append(keys, incarnation);
    @SuppressWarnings("unchecked")
    List<Object> reply = (List<Object>) redis.command(call);
    return reply;
  }

  private static String[] append(String[] values, String last) {
    String[] longer = java.util.Arrays.copyOf(values, values.length + 1);
    longer[values.length] = last;
    return longer;
  }
}

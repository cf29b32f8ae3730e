package io.fencedlock.bench;

import static io.fencedlock.bench.Conditions.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** floor-raw against real redis-server processes: its RESP, its pipelining, its failures. */
final class FloorRawSystemIT {
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
  void send_manyCommandsBeforeAnyReply_eachReplyReachesItsOwnCommand() {
    int keys = 250;
    List<String> replies = Collections.synchronizedList(new ArrayList<>());
    List<String> expected = new ArrayList<>();
    try (RawNodes nodes = RawNodes.connect(redis.uris().subList(0, 1), "test-io")) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(256);
      for (int i = 0; i < keys; i++) {
        String key = "it:pipelined:" + i;
        send(
            nodes,
            RespCommands.set(buffer, key, i, 60_000),
            replies,
            i + " first SET",
            expected,
            "STATUS 0");
        send(
            nodes,
            RespCommands.set(buffer, key, i, 60_000),
            replies,
            i + " second SET",
            expected,
            "NIL 0");
        send(
            nodes, RespCommands.del(buffer, key), replies, i + " first DEL", expected, "INTEGER 1");
        send(
            nodes,
            RespCommands.del(buffer, key),
            replies,
            i + " second DEL",
            expected,
            "INTEGER 0");
      }
      await(() -> replies.size() == expected.size());

      assertThat(replies).containsExactlyElementsOf(expected);
      assertThat(nodes.node(0).pendingReplies()).isZero();
    }
  }

  @Test
  void acquire_32ClientsAtOnce_allGrantedAndEveryKeyDeleted() throws InterruptedException {
    int clients = 32;
    int opsEach = 100;
    AtomicInteger granted = new AtomicInteger();
    try (FloorRawSystem floor = new FloorRawSystem("floor-raw", redis.uris(), 3)) {
      List<Throwable> failures =
          ConcurrentClients.run(
              clients,
              c -> {
                String resource = "it:concurrent:" + c;
                for (int i = 0; i < opsEach; i++) {
                  floor.acquire(resource, Duration.ZERO).release();
                  granted.incrementAndGet();
                }
              });

      assertThat(failures).isEmpty();
      assertThat(granted).hasValue(clients * opsEach);
    }
    // Closing drops the last DELs' stragglers, but a quorum deleted every key; the other nodes too
    // unless the close came first, so check the quorum.
    for (int c = 0; c < clients; c++) {
      String key = "it:concurrent:" + c;
      long holding =
          redis.nodes().stream()
              .filter(n -> !"0".equals(String.valueOf(n.command("EXISTS", key))))
              .count();
      assertThat(holding).as(key).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void acquire_heldResource_isRefusedAndTheRefusalUndoesEveryGrant() {
    try (FloorRawSystem floor = new FloorRawSystem("floor-raw", redis.uris(), 3)) {
      floor.acquire("it:held", Duration.ZERO);

      assertThatThrownBy(() -> floor.acquire("it:held", Duration.ZERO))
          .isInstanceOf(NotGrantedException.class)
          .hasMessageContaining("it:held is held");
      // floor semantics: the undo is a plain DEL on every node (not a real lock's
      // compare-and-delete)
      floor.acquire("it:held", Duration.ZERO).release();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = FloorRawSystem.Steps.class,
      names = {"COMPARE_AND_DELETE", "FENCED"})
  void scriptedFloor_refusedAcquire_undoesItsOwnGrantsWithCompareAndDelete_andKeepsTheHolders(
      FloorRawSystem.Steps steps) {
    String key = "it:scripted-refused:" + steps;
    List<RedisNode> holding = redis.nodes().subList(0, 3);
    List<RedisNode> free = redis.nodes().subList(3, 5);
    holding.forEach(n -> n.command("SET", key, "someone-else", "PX", "60000"));
    List<Long> expiredBefore = free.stream().map(FloorRawSystemIT::expiredKeys).toList();
    try (FloorRawSystem rival = new FloorRawSystem("rival", redis.uris(), 3, steps)) {

      assertThatThrownBy(() -> rival.acquire(key, Duration.ZERO))
          .isInstanceOf(NotGrantedException.class)
          .hasMessageContaining(key + " is held");

      // Its two grants are undone (deleted, not left to expire); floor-raw's plain DEL would
      // delete the holder's key too.
      await(
          () -> free.stream().allMatch(n -> "0".equals(String.valueOf(n.command("EXISTS", key)))));
      assertThat(free.stream().map(FloorRawSystemIT::expiredKeys).toList())
          .as("keys expired on the nodes that granted")
          .isEqualTo(expiredBefore);
      for (RedisNode node : holding) {
        assertThat(node.command("GET", key)).isEqualTo("someone-else");
      }
    } finally {
      holding.forEach(n -> n.command("DEL", key));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = FloorRawSystem.Steps.class,
      names = {"COMPARE_AND_DELETE", "FENCED"})
  void scriptedFloor_release_leavesAnotherOwnersKey(FloorRawSystem.Steps steps) {
    String key = "it:scripted-release:" + steps;
    try (FloorRawSystem floor = new FloorRawSystem("floor", redis.uris(), 3, steps)) {
      LockSystem.Held held = floor.acquire(key, Duration.ZERO);
      await(() -> nodesHolding(key) == redis.nodes().size()); // the 4th and 5th SET are in too
      redis.nodes().forEach(n -> n.command("SET", key, "someone-else"));

      held.release();

      for (RedisNode node : redis.nodes()) {
        assertThat(node.command("GET", key)).isEqualTo("someone-else");
      }
      redis.nodes().forEach(n -> n.command("DEL", key));
    }
  }

  @Test
  void fencedFloor_raisesTheFenceCounterWithEachGrant_andARefusalWritesNone() {
    String key = "it:fenced-floor";
    String fence = key + RespCommands.FENCE_SUFFIX;
    try (FloorRawSystem floor =
        new FloorRawSystem("floor", redis.uris(), 3, FloorRawSystem.Steps.FENCED)) {
      for (int i = 0; i < 3; i++) {
        floor.acquire(key, Duration.ZERO).release();
      }
      LockSystem.Held held = floor.acquire(key, Duration.ZERO); // token 4
      assertThatThrownBy(() -> floor.acquire(key, Duration.ZERO)) // token 5, refused
          .isInstanceOf(NotGrantedException.class);
      held.release();

      await(() -> redis.nodes().stream().allMatch(n -> "4".equals(n.command("GET", fence))));
    }
  }

  @Test
  void fencedFloor_predictionNotAboveTheCounter_isAnErrorAndUndone_andTheCounterStays() {
    String key = "it:fenced-floor-stale";
    String fence = key + RespCommands.FENCE_SUFFIX;
    redis.nodes().forEach(n -> n.command("SET", fence, "100"));
    try (FloorRawSystem floor =
        new FloorRawSystem("floor", redis.uris(), 3, FloorRawSystem.Steps.FENCED)) {

      assertThatThrownBy(() -> floor.acquire(key, Duration.ZERO)) // token 1
          .isInstanceOf(NotGrantedException.class)
          .hasMessageContaining("token 1 not above the fence counter");

      await(() -> nodesHolding(key) == 0); // the undo's compare-and-delete, everywhere
      for (RedisNode node : redis.nodes()) {
        assertThat(node.command("GET", fence)).isEqualTo("100");
      }
    } finally {
      redis.nodes().forEach(n -> n.command("DEL", fence));
    }
  }

  /** How many keys {@code node} has expired since it started ({@code INFO stats}). */
  private static long expiredKeys(RedisNode node) {
    String stats = String.valueOf(node.command("INFO", "stats"));
    int at = stats.indexOf("expired_keys:");
    assertThat(at).as("expired_keys in INFO stats").isNotNegative();
    int from = at + "expired_keys:".length();
    int to = from;
    while (to < stats.length() && Character.isDigit(stats.charAt(to))) {
      to++;
    }
    return Long.parseLong(stats.substring(from, to));
  }

  private static long nodesHolding(String key) {
    return redis.nodes().stream()
        .filter(n -> !"0".equals(String.valueOf(n.command("EXISTS", key))))
        .count();
  }

  @Test
  void acquire_throughOneMillisecondLinks_takesTwoDelayedRoundTrips() {
    try (LatencyLinks links = LatencyLinks.start(redis.uris(), 1_000, 200);
        FloorRawSystem floor = new FloorRawSystem("floor-raw", links.uris(), 3)) {
      for (int i = 0; i < 20; i++) {
        long start = System.nanoTime();
        floor.acquire("it:links", Duration.ZERO).release();
        // Each of the two steps waits for the third reply, each reply delayed 0.8 ms at least.
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(1_600_000L);
      }
    }
  }

  @Test
  void acquire_nodesFailing_grantedWhileAQuorumAnswers_thenRefusedWithoutWaitingOutTheTimeout() {
    try (RedisNodes own = RedisNodes.start(5);
        FloorRawSystem floor = new FloorRawSystem("floor-raw", own.uris(), 3)) {
      own.node(0).kill();
      own.node(1).kill();
      await(() -> grants(floor)); // the connections notice the kills on their next read

      own.node(2).kill();
      long start = System.nanoTime();

      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 10; i++) { // until the third dead connection has been noticed
                  floor.acquire("it:failing", Duration.ZERO).release();
                }
              })
          .isInstanceOf(NotGrantedException.class)
          .hasMessageContaining("connection to");
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(BenchTiming.COMMAND_TIMEOUT);
    }
  }

  private static boolean grants(FloorRawSystem floor) {
    try {
      floor.acquire("it:failing", Duration.ZERO).release();
      return true;
    } catch (NotGrantedException e) {
      return false; // a killed node's reply not in yet: try again
    }
  }

  private static void send(
      RawNodes nodes,
      ByteBuffer command,
      List<String> replies,
      String what,
      List<String> expected,
      String expectedReply) {
    expected.add(what + ": " + expectedReply);
    nodes
        .node(0)
        .send(command, (kind, integer, error) -> replies.add(what + ": " + kind + " " + integer));
  }
}

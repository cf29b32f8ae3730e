package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.redlock.spi.ReleaseFeed;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Lettuce driver against real nodes, where the algorithm's tests cannot see it. */
final class LettuceNodeDriverIT {

  @Test
  void connect_loadsEveryScriptIntoEveryNode() {
    try (RedisNodes nodes = RedisNodes.start(3)) {
      nodes.forEach(n -> n.command("SCRIPT", "FLUSH"));
      RedlockConfig config =
          RedlockConfig.builder().nodes(nodes.uris()).connectTimeout(Timing.AWAIT).build();

      try (LettuceNodeDriver driver = LettuceNodeDriver.open(config)) {
        driver.connect(Timing.AWAIT);

        for (RedisNode node : nodes) {
          for (LuaScript script : LuaScript.ALL) {
            assertThat(((List<?>) node.command("SCRIPT", "EXISTS", script.sha1())).get(0))
                .as("%s known to %s", script.name(), node)
                .isEqualTo(1L);
          }
        }
      }
    }
  }

  /**
   * Every shape of acquire.lua's and handoff.lua's replies, as this driver reads them: the token
   * alone when the prediction was written, an array otherwise.
   */
  @Test
  void lockSteps_everyReplyShape_parses() throws Exception {
    try (RedisNodes nodes = RedisNodes.start(1)) {
      RedisNode node = nodes.node(0);
      node.command("SET", NodeKeys.MARKER, "5");
      RedlockConfig config =
          RedlockConfig.builder().nodes(nodes.uris()).connectTimeout(Timing.AWAIT).build();

      try (LettuceNodeDriver driver = LettuceNodeDriver.open(config)) {
        driver.connect(Timing.AWAIT);

        assertThat(get(driver.lock(0, fenced("alice", 0, null))))
            .as("nothing predicted: the marker's epoch, nothing written")
            .isEqualTo(new LockReply.Granted(5, false));
        assertThat(get(driver.lock(0, fenced("bob", 0, null))))
            .isInstanceOfSatisfying(
                LockReply.Refused.class,
                refused -> {
                  assertThat(refused.holder()).isEqualTo("alice");
                  assertThat(refused.counter()).isEqualTo(5);
                  assertThat(refused.pttlMillis()).isPositive();
                });
        assertThat(get(driver.lock(0, fenced("bob", 6, "alice"))))
            .as("a handoff step with a prediction above the counter: written")
            .isEqualTo(new LockReply.Granted(6, true));
        assertThat(node.command("GET", "lt:fence")).isEqualTo("6");
        assertThat(get(driver.lock(0, new LockRequest("lt:plain", null, "carol", 60_000, 0, "x"))))
            .as("unfenced handoff.lua")
            .isEqualTo(new LockReply.Granted(0, false));

        node.command("DEL", NodeKeys.MARKER);
        assertThat(get(driver.lock(0, fenced("dave", 7, null))))
            .isEqualTo(new LockReply.Uninitialized());
      }
    }
  }

  /**
   * An unsubscribe that comes while the pub/sub connection is still being opened, or while it
   * reconnects (Lettuce rejects commands then, and resubscribes every channel it knew), leaves
   * nothing subscribed: a stray subscription would keep this client hearing of that lock's
   * releases, and its lead node counting it as listening (issue 37).
   */
  @Test
  void unsubscribe_whileConnectingOrReconnecting_leavesNothingSubscribed() throws Exception {
    try (RedisNodes nodes = RedisNodes.start(1)) {
      RedisNode node = nodes.node(0);
      RedlockConfig config =
          RedlockConfig.builder().nodes(nodes.uris()).connectTimeout(Timing.AWAIT).build();

      try (LettuceNodeDriver driver = LettuceNodeDriver.open(config)) {
        driver.connect(Timing.AWAIT);
        ReleaseFeed feed = driver.releases();
        CompletableFuture<Void> first = feed.subscribe("stray:connecting");
        feed.unsubscribe("stray:connecting"); // the pub/sub connection is still being opened
        get(first);
        get(feed.subscribe("stray:kept"));
        await().atMost(Timing.AWAIT).until(() -> subscribers(node, "stray:connecting") == 0);

        get(feed.subscribe("stray:reconnecting"));
        node.command("CLIENT", "KILL", "TYPE", "pubsub");
        feed.unsubscribe("stray:reconnecting");
        await().atMost(Timing.AWAIT).until(() -> subscribers(node, "stray:kept") == 1);
        await().atMost(Timing.AWAIT).until(() -> subscribers(node, "stray:reconnecting") == 0);
      }
    }
  }

  private static long subscribers(RedisNode node, String channel) {
    return (Long) ((List<?>) node.command("PUBSUB", "NUMSUB", channel)).get(1);
  }

  private static LockRequest fenced(String owner, long predicted, String predecessor) {
    return new LockRequest("lt:lock", "lt:fence", owner, 60_000, predicted, predecessor);
  }

  private static <T> T get(CompletableFuture<T> future) throws Exception {
    return future.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
  }
}

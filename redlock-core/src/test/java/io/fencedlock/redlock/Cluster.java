package io.fencedlock.redlock;

import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers over a {@link RedisNodes} fixture shared by the integration tests. */
final class Cluster {

  private Cluster() {}

  /** A config builder for these nodes with the test timing; nothing else set. */
  static RedlockConfig.Builder config(RedisNodes nodes) {
    return configFor(nodes.uris());
  }

  /** The same for any node URIs. */
  static RedlockConfig.Builder configFor(List<String> uris) {
    return RedlockConfig.builder()
        .nodes(uris)
        .nodeTimeout(LockTiming.NODE_TIMEOUT)
        // Creation waits for the first connections; on a loaded machine the handshake is slow.
        .connectTimeout(Timing.AWAIT)
        .retryDelay(Duration.ofMillis(20))
        .retryJitter(Duration.ofMillis(20));
  }

  /**
   * A client whose acquires no longer refuse on nodes without their marker: only for the negative
   * controls that show what the check prevents.
   */
  static Redlock withoutMarkerCheckUnsafe(RedlockConfig config) {
    return Redlock.create(
        config,
        RespNodeDriver.open(config, DriverOptions.defaults().withoutMarkerCheckUnsafe()),
        Environment.system());
  }

  /** The text of one of the library's Lua scripts, as the nodes run it. */
  static String luaSource(String file) {
    try (java.io.InputStream in =
        Cluster.class.getResourceAsStream("/io/fencedlock/redlock/lua/" + file)) {
      return new String(
          java.util.Objects.requireNonNull(in, file).readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Resumes paused nodes and restarts killed ones, so each test starts with all nodes up. */
  static void heal(RedisNodes nodes) {
    for (RedisNode node : nodes) {
      if (node.isPaused()) {
        node.resume();
      }
      if (!node.isRunning()) {
        node.restart();
      }
    }
  }

  /** How many running nodes hold {@code key}. */
  static long holding(RedisNodes nodes, String key) {
    return nodes.nodes().stream()
        .filter(RedisNode::isRunning)
        .filter(n -> Long.valueOf(1).equals(n.command("EXISTS", key)))
        .count();
  }

  /** 1 if {@code node} holds {@code key}, else 0. */
  static long holding(RedisNode node, String key) {
    return (Long) node.command("EXISTS", key);
  }

  /** How many nodes store {@code value} under {@code key}. */
  static long holdingValue(RedisNodes nodes, String key, String value) {
    return nodes.nodes().stream()
        .filter(RedisNode::isRunning)
        .filter(n -> value.equals(n.command("GET", key)))
        .count();
  }

  /**
   * How many EVALSHA commands a node has run since it started: one per script call, so counting
   * them counts a client's round trips to that node.
   */
  static long evalshaCalls(RedisNode node) {
    return commandCalls(node, "evalsha");
  }

  /** The same summed over every node. */
  static long evalshaCalls(RedisNodes nodes) {
    return commandCalls(nodes, "evalsha");
  }

  /**
   * How many times the nodes have run {@code command} (lower case) since they started, summed;
   * commands that scripts call count too.
   */
  static long commandCalls(RedisNodes nodes, String command) {
    return nodes.nodes().stream().mapToLong(node -> commandCalls(node, command)).sum();
  }

  /** How many times one node has run {@code command} (lower case) since it started. */
  static long commandCalls(RedisNode node, String command) {
    Matcher m =
        Pattern.compile("cmdstat_" + command + ":calls=(\\d+)")
            .matcher((String) node.command("INFO", "commandstats"));
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  /** On how many nodes a client is subscribed to the release channel of {@code resource}. */
  static long releaseSubscribers(RedisNodes nodes, String resource) {
    long count = 0;
    for (RedisNode node : nodes) {
      List<?> reply = (List<?>) node.command("PUBSUB", "NUMSUB", "fencedlock:released:" + resource);
      count += (Long) reply.get(1);
    }
    return count;
  }

  /** The lock's lead node: the node contended attempts ask first, and its waiter queue's home. */
  static RedisNode lead(RedisNodes nodes, String resource) {
    List<String> identities = nodes.uris().stream().map(LeadNode::identity).toList();
    return nodes.node(LeadNode.pick(identities, resource));
  }

  /** {@code prefix} with a suffix that makes {@code node} the resource's lead node. */
  static String resourceLedBy(RedisNodes nodes, int node, String prefix) {
    List<String> identities = nodes.uris().stream().map(LeadNode::identity).toList();
    for (int i = 0; ; i++) {
      String resource = prefix + ":" + i;
      if (LeadNode.pick(identities, resource) == node) {
        return resource;
      }
    }
  }

  /** How many clients listen on their own channels of the lock on its lead node. */
  static long listeningOnTheLead(RedisNodes nodes, String resource) {
    String pattern = "fencedlock:next:" + resource + ":*";
    return ((List<?>) lead(nodes, resource).command("PUBSUB", "CHANNELS", pattern)).size();
  }

  /**
   * A client of {@code nodes} whose waiters retry only when a release wakes them: their retry delay
   * ({@code neverInTheTest}) is far longer than any await bound of the test.
   */
  static RedlockConfig.Builder wokenOnly(RedisNodes nodes, Duration neverInTheTest) {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(LockTiming.NODE_TIMEOUT)
        .connectTimeout(Timing.AWAIT)
        .retryDelay(neverInTheTest)
        .retryJitter(Duration.ZERO);
  }

  static void awaitNoKey(RedisNodes nodes, String key) {
    await().atMost(Timing.AWAIT).until(() -> holding(nodes, key) == 0);
  }
}

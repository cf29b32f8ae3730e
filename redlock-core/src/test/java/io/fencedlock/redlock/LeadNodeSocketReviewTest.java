package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Review of 37b6a86: LeadNode hashes the driver's labels, which NodeClient makes as {@code
 * uri.getHost() + ":" + uri.getPort()}. For Unix-socket nodes (accepted by RedlockConfig, see
 * NodeAddress) every label is "null:6379", so every key's lead is whichever node a client lists
 * first: two clients listing the same sockets in different orders pick different servers (the
 * contended waiters of both split the nodes again), and all keys' first steps go to one node.
 */
final class LeadNodeSocketReviewTest {

  /** The label LettuceNodeDriver gives a node (NodeClient's constructor). */
  private static String label(String uri) {
    RedisURI parsed = RedisURI.create(uri);
    return parsed.getHost() + ":" + parsed.getPort();
  }

  @Test
  void socketNodes_listedInAnotherOrder_leadIsTheSameServer() {
    List<String> one =
        List.of(
            "redis-socket:///tmp/fencedlock-a.sock",
            "redis-socket:///tmp/fencedlock-b.sock",
            "redis-socket:///tmp/fencedlock-c.sock");
    List<String> other = List.of(one.get(2), one.get(0), one.get(1));
    for (String key : List.of("orders", "invoices", "users", "k")) {
      String leadOfOne = one.get(LeadNode.pick(one.stream().map(u -> label(u)).toList(), key));
      String leadOfOther =
          other.get(LeadNode.pick(other.stream().map(u -> label(u)).toList(), key));
      assertThat(leadOfOther)
          .as("lead of %s (labels %s)", key, label(one.get(0)))
          .isEqualTo(leadOfOne);
    }
  }
}

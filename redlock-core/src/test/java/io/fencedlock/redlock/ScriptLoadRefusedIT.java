package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.lettuce.LettuceNodeDriver;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Nodes that refuse {@code SCRIPT LOAD} but run {@code EVAL} and {@code EVALSHA} (an ACL without
 * {@code SCRIPT}, as some managed services and proxies have): every lock operation works on either
 * driver, fenced ones included, whose lock step a driver never sends twice.
 */
final class ScriptLoadRefusedIT {
  private static final Duration TTL = Duration.ofSeconds(10);
  private static RedisNodes nodes;

  /** The nodes, reached as a user that may run scripts but not load them. */
  private static List<String> uris;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(3);
    for (RedisNode node : nodes) {
      node.command("ACL", "SETUSER", "locker", "on", ">secret", "~*", "&*", "+@all", "-script");
    }
    uris =
        nodes.nodes().stream()
            .map(node -> "redis://locker:secret@" + node.host() + ":" + node.port())
            .toList();
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @Test
  void respDriver_fencedLocksAreGranted() {
    everyLockOperationWorks("resp", RespNodeDriver::open);
  }

  @Test
  void lettuceDriver_fencedLocksAreGranted() {
    everyLockOperationWorks("lettuce", LettuceNodeDriver::open);
  }

  private static void everyLockOperationWorks(
      String name, Function<RedlockConfig, NodeDriver> driver) {
    nodes.forEach(node -> node.command("SCRIPT", "FLUSH"));
    RedlockConfig config = Cluster.configFor(uris).build();
    try (Redlock redlock = Redlock.create(config, driver.apply(config), Environment.system())) {
      String resource = "it:script-load-refused:" + name;

      Lease first = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      assertThat(first.fencingToken()).isPositive();
      assertThat(first.extend(TTL)).isTrue();
      assertThat(first.release()).isTrue();
      Lease second = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
      assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
      assertThat(second.release()).isTrue();

      MultiLease both =
          redlock.acquireAll(List.of(resource + ":a", resource + ":b"), TTL, LockTiming.RETRY_WAIT);
      assertThat(both.fencingTokens().values()).allMatch(token -> token > 0);
      assertThat(both.release()).isTrue();
    }
  }
}

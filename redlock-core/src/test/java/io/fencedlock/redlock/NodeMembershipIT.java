package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.lettuce.LettuceNodeDriver;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class NodeMembershipIT {

  @Test
  void initializeIfNew_nodeSlowerThanNodeTimeout_stillMarksEveryNode() throws Exception {
    try (RedisNodes redis = RedisNodes.start(5)) {
      RedlockConfig config =
          RedlockConfig.builder()
              .nodes(redis.uris())
              .nodeTimeout(Duration.ofMillis(50))
              .connectTimeout(Duration.ofSeconds(10))
              .build();
      LettuceNodeDriver driver = LettuceNodeDriver.open(config);
      driver.connect(Duration.ofSeconds(10));
      NodeMembership membership =
          new NodeMembership(
              new Nodes(driver, config),
              config,
              RedlockMetrics.NONE,
              System::currentTimeMillis,
              () -> "unused");

      // Node 4 stalls for far longer than a lock operation's timeout while the deployment is
      // set up: a probe or mark that gave up after 50 ms would leave it unmarked, and it
      // would then be shut out as if it had lost its memory.
      redis.node(4).pause();
      CompletableFuture<Boolean> initialized = membership.initializeIfNew();
      CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS).execute(redis.node(4)::resume);

      try {
        assertThat(initialized.get(10, TimeUnit.SECONDS)).isTrue();
        for (RedisNode node : redis) {
          assertThat(node.command("EXISTS", NodeKeys.MARKER)).as(node.uri()).isEqualTo(1L);
        }
      } finally {
        driver.close();
      }
    }
  }
}

package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.util.List;
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
}

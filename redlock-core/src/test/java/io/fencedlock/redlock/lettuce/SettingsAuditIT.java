package io.fencedlock.redlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SettingsAuditIT {

  @Test
  void warnings_riskySettings_nameTheNodesThatHaveThem() {
    try (RedisNodes nodes =
        RedisNodes.builder()
            .nodes(4)
            .persistence(Persistence.AOF_ALWAYS)
            .persistence(1, Persistence.NONE)
            .persistence(2, Persistence.AOF_EVERYSEC)
            .start()) {
      nodes.node(3).command("CONFIG", "SET", "maxmemory", "100mb");
      nodes.node(3).command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
      try (LettuceNodeDriver driver = open(nodes)) {
        List<String> warnings = driver.settingsWarnings().join();

        String n1 = "127.0.0.1:" + nodes.node(1).port();
        String n2 = "127.0.0.1:" + nodes.node(2).port();
        String n3 = "127.0.0.1:" + nodes.node(3).port();
        assertThat(warnings).hasSize(3);
        assertThat(warnings)
            .anySatisfy(w -> assertThat(w).contains("[" + n1 + "]").contains("appendonly off"));
        assertThat(warnings)
            .anySatisfy(w -> assertThat(w).contains("[" + n2 + "]").contains("appendfsync"));
        assertThat(warnings)
            .anySatisfy(w -> assertThat(w).contains("[" + n3 + "]").contains("evict"));
      }
    }
  }

  @Test
  void warnings_recommendedSettings_none() {
    try (RedisNodes nodes = RedisNodes.start(3, Persistence.AOF_ALWAYS);
        LettuceNodeDriver driver = open(nodes)) {
      assertThat(driver.settingsWarnings().join()).isEmpty();
    }
  }

  private static LettuceNodeDriver open(RedisNodes nodes) {
    LettuceNodeDriver driver =
        LettuceNodeDriver.open(
            RedlockConfig.builder()
                .nodes(nodes.uris())
                .nodeTimeout(Duration.ofMillis(500))
                .build());
    driver.connect(Duration.ofSeconds(5));
    return driver;
  }
}

package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A JVM that dies without closing its fixtures must not leave redis-server processes behind. */
final class ShutdownHookIT {

  @Test
  void jvmTerminated_withoutClosingNodes_killsRunningAndPausedRedisAndDeletesDirs() {
    try (ChildJvmProcess child = ChildJvmProcess.start("nodes", Map.of())) {
      List<Long> pids = Arrays.stream(child.awaitLine("PIDS").split(" "))
          .map(Long::parseLong)
          .toList();
      Path root = Path.of(child.awaitLine("ROOT"));
      assertThat(pids).hasSize(2).allMatch(Processes::isAlive);
      assertThat(root).isDirectory();

      child.terminate();

      assertThat(child.awaitExit()).as(child.output()).isNotZero();
      Processes.awaitAllDead(pids);
      await("root dir to be deleted")
          .atMost(Timing.EVENTUALLY)
          .pollInterval(Timing.POLL)
          .until(() -> !Files.exists(root));
    }
  }
}

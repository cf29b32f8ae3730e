package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that dies without closing its fixtures must not leave redis-server processes behind. */
final class ShutdownHookIT {
  private static final Pattern PIDS = Pattern.compile("PIDS (.+)");
  private static final Pattern ROOT = Pattern.compile("ROOT (.+)");

  @TempDir Path logs;

  @Test
  void jvmTerminated_withoutClosingNodes_killsRunningAndPausedRedisAndDeletesDirs() {
    try (ChildProcess child =
        ChildProcess.start(logs, ChildProcess.java(ChildJvm.class, "nodes"))) {
      List<Long> pids =
          Arrays.stream(child.awaitLine(PIDS, Timing.PROCESS).group(1).split(" "))
              .map(Long::parseLong)
              .toList();
      Path root = Path.of(child.awaitLine(ROOT, Timing.PROCESS).group(1));
      assertThat(pids).hasSize(2).allMatch(Processes::isAlive);
      assertThat(root).isDirectory();

      assertThat(child.terminate(Timing.PROCESS)).as(child.output()).isNotZero();

      Processes.awaitAllDead(pids);
      await("root dir to be deleted")
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> !Files.exists(root));
    }
  }
}

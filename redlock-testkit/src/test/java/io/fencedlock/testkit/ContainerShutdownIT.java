package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test JVM that dies without closing its container nodes must not leave containers, volumes or
 * networks behind: its shutdown hook removes them on SIGTERM, the resource reaper (Ryuk, or the
 * stand-in scripts/docker-setup builds) on SIGKILL, when no hook runs.
 */
final class ContainerShutdownIT {
  /** The reaper waits 10 s for the JVM to reconnect before it removes anything. */
  private static final Duration REAPER = Timing.scaled(Duration.ofSeconds(40));

  private static final Pattern SESSION = Pattern.compile("SESSION (\\S+)");

  @BeforeEach
  void requireDocker() {
    DockerAssumption.assumeDocker();
  }

  @TempDir Path logs;

  @Test
  void jvmTerminated_withoutClosingNodes_shutdownHookRemovesEverything() {
    try (ChildProcess child = startChild()) {
      String session = child.awaitLine(SESSION, Timing.PROCESS).group(1);
      assertThat(DockerObjects.ofSession(session)).hasSize(2 + 2 + 1);

      assertThat(child.terminate(Timing.PROCESS)).as(child.output()).isNotZero();

      assertThat(DockerObjects.ofSession(session)).isEmpty();
    }
  }

  @Test
  void jvmKilled_withoutClosingNodes_reaperRemovesEverything() {
    try (ChildProcess child = startChild()) {
      String session = child.awaitLine(SESSION, Timing.PROCESS).group(1);
      assertThat(DockerObjects.ofSession(session)).hasSize(2 + 2 + 1);

      child.kill9(Timing.PROCESS);

      await("the reaper to remove session " + session)
          .atMost(REAPER)
          .pollInterval(Timing.POLL)
          .untilAsserted(() -> assertThat(DockerObjects.ofSession(session)).isEmpty());
    }
  }

  /** A JVM that starts container nodes, prints {@code SESSION <id>} and blocks until killed. */
  private ChildProcess startChild() {
    return ChildProcess.start(logs, ChildProcess.java(ContainerChildJvm.class, "nodes"));
  }
}

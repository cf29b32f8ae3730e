package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A test JVM that dies without closing its container nodes must not leave containers, volumes or
 * networks behind: its shutdown hook removes them on SIGTERM, the resource reaper (Ryuk, or the
 * stand-in scripts/docker-setup builds) on SIGKILL, when no hook runs.
 */
final class ContainerShutdownIT {
  /** The reaper waits 10 s for the JVM to reconnect before it removes anything. */
  private static final Duration REAPER = Timing.scaled(Duration.ofSeconds(40));

  @BeforeEach
  void requireDocker() {
    DockerAssumption.assumeDocker();
  }

  @Test
  void jvmTerminated_withoutClosingNodes_shutdownHookRemovesEverything() {
    try (ChildJvmProcess child = ChildJvmProcess.start(ContainerChildJvm.class, "nodes", Map.of())) {
      String session = child.awaitLine("SESSION");
      assertThat(DockerObjects.ofSession(session)).hasSize(2 + 2 + 1);

      child.terminate();

      assertThat(child.awaitExit()).as(child.output()).isNotZero();
      assertThat(DockerObjects.ofSession(session)).isEmpty();
    }
  }

  @Test
  void jvmKilled_withoutClosingNodes_reaperRemovesEverything() {
    try (ChildJvmProcess child = ChildJvmProcess.start(ContainerChildJvm.class, "nodes", Map.of())) {
      String session = child.awaitLine("SESSION");
      assertThat(DockerObjects.ofSession(session)).hasSize(2 + 2 + 1);

      child.kill();

      child.awaitExit();
      await("the reaper to remove session " + session)
          .atMost(REAPER)
          .pollInterval(Timing.POLL)
          .untilAsserted(() -> assertThat(DockerObjects.ofSession(session)).isEmpty());
    }
  }
}

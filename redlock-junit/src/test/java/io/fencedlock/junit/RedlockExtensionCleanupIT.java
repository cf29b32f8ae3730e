package io.fencedlock.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.fencedlock.redlock.Redlock;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.Deployment;
import io.fencedlock.testkit.DockerEngine;
import io.fencedlock.testkit.Node;
import io.fencedlock.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The extension's lifecycle, seen from outside: sample test classes run through JUnit's engine test
 * kit, then we look at what is left. (The samples are nested classes, which the build's test
 * runners do not pick up on their own.)
 */
final class RedlockExtensionCleanupIT {

  @Test
  void nextTest_afterATestThatKilledAndPausedNodes_findsEveryNodeAnswering() {
    Events tests = run(FaultsSample.class);

    tests.assertStatistics(stats -> stats.started(2).succeeded(2));
  }

  @Test
  void failingTests_onProcesses_leaveNoRedisProcessBehind() {
    FailingProcessSample.pids.clear();

    Events tests = run(FailingProcessSample.class);

    tests.assertStatistics(stats -> stats.started(1).failed(1));
    assertThat(FailingProcessSample.pids)
        .hasSize(3)
        .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
  }

  @Test
  void failingTests_onContainers_leaveNoContainerVolumeOrNetworkBehind() {
    if (!DockerEngine.isAvailable()) {
      // The sample is then skipped by the extension (or fails in CI), which run() reports.
      run(FailingContainerSample.class).assertStatistics(stats -> stats.started(0));
      return;
    }

    Events tests = run(FailingContainerSample.class);

    tests.assertStatistics(stats -> stats.started(1).failed(1));
    assertThat(DockerEngine.objectsOwnedByThisJvm()).isEmpty();
  }

  private static Events run(Class<?> sample) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(sample))
        .execute()
        .testEvents();
  }

  @RedlockDeployment(nodes = 3)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static final class FaultsSample {
    @Test
    @Order(1)
    void breaksTheDeployment(Deployment nodes) {
      nodes.node(0).kill();
      nodes.node(1).kill();
      nodes.node(2).pause();
    }

    @Test
    @Order(2)
    void findsItHealed(Deployment nodes, Redlock redlock) {
      for (Node node : nodes.nodes()) {
        assertThat(node.isRunning()).isTrue();
        assertThat(node.isPaused()).isFalse();
      }
      assertThat(redlock.tryAcquire("sample:healed", Duration.ofSeconds(5))).isPresent();
    }
  }

  @RedlockDeployment(nodes = 3)
  static final class FailingProcessSample {
    static final List<Long> pids = new ArrayList<>();

    @Test
    void fails(Deployment nodes) {
      nodes.nodes().forEach(node -> pids.add(((RedisNode) node).pid()));
      nodes.node(1).pause();
      fail("a failing test must not leak its nodes");
    }
  }

  @RedlockDeployment(nodes = 2, backend = Backend.CONTAINER)
  static final class FailingContainerSample {
    @Test
    void fails(Deployment nodes, Redlock redlock) {
      nodes.node(1).pause();
      fail("a failing test must not leak its containers");
    }
  }
}

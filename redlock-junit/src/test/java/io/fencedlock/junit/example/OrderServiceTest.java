package io.fencedlock.junit.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.junit.RedlockDeployment;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.Deployment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The example in redlock-junit's README, compiled and run so that it cannot rot: change both
 * together. Named {@code *Test}, so a plain {@code mvn test} runs it, as it would in a user's
 * project.
 */
@RedlockDeployment(nodes = 5) // or backend = Backend.CONTAINER, on a Docker engine
class OrderServiceTest {
  @Test
  void place_twoNodesDown_stillLocks(Deployment nodes, Redlock redlock) {
    nodes.node(0).kill(); // SIGKILL
    nodes.node(1).pause(); // frozen: answers nothing
    assertThat(new OrderService(redlock).place("42")).isTrue(); // 3 of 5: a quorum
  }

  @Test
  void place_customClient(RedlockConfig.Builder config) { // preset with the nodes' URIs
    try (Redlock redlock = Redlock.create(config.nodeTimeout(Duration.ofMillis(200)).build())) {
      assertThat(new OrderService(redlock).place("43")).isTrue();
    }
  }
}

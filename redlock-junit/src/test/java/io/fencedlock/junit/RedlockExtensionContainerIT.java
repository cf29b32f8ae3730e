package io.fencedlock.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.ContainerNode;
import io.fencedlock.testkit.Deployment;
import io.fencedlock.testkit.Persistence;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a user's test gets from {@link RedlockDeployment} on containers; skipped without Docker
 * (failed in CI), by the extension itself.
 */
@RedlockDeployment(nodes = 3, backend = Backend.CONTAINER, persistence = Persistence.AOF_ALWAYS)
final class RedlockExtensionContainerIT {
  private static final Duration TTL = Duration.ofSeconds(10);

  @Test
  void redlock_oneNodePartitionedAndOnePaused_failsThenLocksOnceHealed(
      Deployment nodes, Redlock redlock) {
    ((ContainerNode) nodes.node(0)).disconnect();
    nodes.node(1).pause();

    assertThat(redlock.tryAcquire("ext:partition", TTL)).isEmpty();

    nodes.heal();
    Optional<Lease> lease = redlock.tryAcquire("ext:partition", TTL);
    assertThat(lease).isPresent();
    lease.get().close();
  }

  @Test
  void redlock_nodeRestartedWithItsData_keepsTheTokenOrder(Deployment nodes, Redlock redlock) {
    long first;
    try (Lease lease = redlock.tryAcquire("ext:restart", TTL).orElseThrow()) {
      first = lease.fencingToken();
    }
    nodes.node(0).kill();
    nodes.node(0).restart();

    try (Lease lease = redlock.tryAcquire("ext:restart", TTL).orElseThrow()) {
      assertThat(lease.fencingToken()).isGreaterThan(first);
    }
  }
}

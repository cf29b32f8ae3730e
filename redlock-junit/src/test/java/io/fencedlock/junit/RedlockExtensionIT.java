package io.fencedlock.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.Deployment;
import io.fencedlock.testkit.Node;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** What a user's test gets from {@link RedlockDeployment} on processes. */
@RedlockDeployment(nodes = 5)
final class RedlockExtensionIT {
  private static final Duration TTL = Duration.ofSeconds(10);

  @Test
  void redlock_fiveNodes_locksAMajorityWithAToken(Deployment nodes, Redlock redlock) {
    try (Lease lease = redlock.tryAcquire("ext:majority", TTL).orElseThrow()) {
      assertThat(nodes.size()).isEqualTo(5);
      assertThat(lease.fencingToken()).isPositive();
      assertThat(nodes.nodes().stream().filter(n -> has(n, "ext:majority")).count())
          .isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void redlock_twoNodesKilledOrPaused_stillLocks(Deployment nodes, Redlock redlock) {
    nodes.node(0).kill();
    nodes.node(1).pause();

    Optional<Lease> lease = redlock.tryAcquire("ext:two-down", TTL);

    assertThat(lease).isPresent();
    lease.get().close();
  }

  @Test
  void parameters_sameTest_shareOneRedlock(Redlock first, Redlock second) {
    assertThat(first).isSameAs(second);
  }

  @Test
  void configBuilder_isPresetWithTheNodes(RedlockConfig.Builder config, Deployment nodes) {
    assertThat(config.build().nodes()).isEqualTo(nodes.uris());
  }

  @Nested
  final class Inner {
    @Test
    void deployment_nestedClass_sharesTheEnclosingOne(Deployment nodes, Redlock redlock) {
      assertThat(nodes.size()).isEqualTo(5);
      assertThat(redlock.tryAcquire("ext:nested", TTL)).isPresent();
    }
  }

  private static boolean has(Node node, String key) {
    return Long.valueOf(1).equals(node.command("EXISTS", key));
  }
}
